import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import ServiceLifecycle
import Strata

/// A Hummingbird application served in-process from its own `ServiceGroup`, that shuts
/// down gracefully and never drops a connection it accepted.
///
/// Cancelling the task that runs a Hummingbird server can leave an accepted connection
/// unserved, which traps in SwiftNIO ("Deinited NIOAsyncWriter without calling
/// finish()", apple/swift-nio#3481). So ``shutdown()`` triggers the group's graceful
/// shutdown instead: the server stops accepting, closes idle connections and lets
/// requests in flight finish; routes that wait with ``sleepUnlessShuttingDown(for:)``
/// stop waiting at once. What is still running after the grace period is cancelled, and
/// any connection that was accepted but never served is finished and closed.
///
/// ```swift
/// let server = try await InProcessServer.start(router: router, serverName: "demo", logger: logger)
/// print(server.port)
/// await server.shutdown()
/// ```
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public final class InProcessServer: Sendable {
    /// The port the server listens on.
    public let port: Int
    private let serviceGroup: ServiceGroup
    private let task: Task<Void, any Error>

    /// How long a graceful shutdown waits for requests in flight before cancelling them.
    public static let defaultGracePeriod: Duration = .milliseconds(500)

    private init(port: Int, serviceGroup: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.serviceGroup = serviceGroup
        self.task = task
    }

    /// Starts serving `router` over HTTP/1.1 (or as `server` says) and returns once the
    /// server accepts connections.
    /// - Parameters:
    ///   - router: the routes to serve.
    ///   - server: how connections are served: `nil` (the default) for HTTP/1.1, every
    ///     accepted connection served even through a shutdown (see ``InProcessServer``);
    ///     another builder, such as hummingbird-websocket's `.http1WebSocketUpgrade`, serves
    ///     its connections as it does.
    ///   - host: the address to bind, `127.0.0.1` by default.
    ///   - port: the port to listen on; `0` picks a free one (see ``port``).
    ///   - serverName: the `Server` header of every response.
    ///   - logger: the server's logger.
    ///   - stopsOnSignals: whether `SIGTERM` and `SIGINT` shut the server down gracefully.
    ///   - gracePeriod: how long a graceful shutdown waits for requests in flight before
    ///     cancelling them.
    ///   - tlsConfiguration: when given, the server speaks HTTPS with it.
    /// - Throws: the error the server stopped on (it could not bind, say), or
    ///   ``InProcessServerError/didNotStart`` when it stopped without one.
    public static func start(
        router: Router<BasicRequestContext>,
        server builder: HTTPServerBuilder? = nil,
        host: String = "127.0.0.1",
        port: Int = 0,
        serverName: String,
        logger: Logger,
        stopsOnSignals: Bool = false,
        gracePeriod: Duration = defaultGracePeriod,
        tlsConfiguration: TLSConfiguration? = nil
    ) async throws -> InProcessServer {
        let ledger = ConnectionLedger()
        let plain =
            builder
            ?? HTTPServerBuilder { responder in
                LedgeredHTTP1Channel(http1: HTTP1Channel(responder: responder), ledger: ledger)
            }
        let server = try tlsConfiguration.map { try .tls(plain, tlsConfiguration: $0) } ?? plain
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: serverName),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger
        )
        var configuration = ServiceGroupConfiguration(
            services: [app],
            gracefulShutdownSignals: stopsOnSignals ? [.sigterm, .sigint] : [],
            logger: logger
        )
        configuration.maximumGracefulShutdownDuration = gracePeriod
        let serviceGroup = ServiceGroup(configuration: configuration)
        let task = Task {
            defer { portContinuation.finish() }
            let outcome: Result<Void, any Error>
            do {
                outcome = .success(try await serviceGroup.run())
            } catch {
                outcome = .failure(error)
            }
            // However the server stopped, no handler runs any more: finish what it never served.
            await ledger.closeAndFinishUnserved()
            try outcome.get()
        }
        var iterator = ports.makeAsyncIterator()
        guard let boundPort = await iterator.next(), boundPort > 0 else {
            await serviceGroup.triggerGracefulShutdown()
            if case .failure(let error) = await task.result, !(error is CancellationError) { throw error }
            throw InProcessServerError.didNotStart
        }
        return InProcessServer(port: boundPort, serviceGroup: serviceGroup, task: task)
    }

    /// Shuts the server down gracefully (see ``InProcessServer``) and returns once it
    /// has stopped. Calling it again, or after the server stopped, just waits.
    public func shutdown() async {
        await serviceGroup.triggerGracefulShutdown()
        _ = await task.result
    }

    /// Waits until the server stops: after ``shutdown()``, after a signal (when started
    /// with `stopsOnSignals`), or when the calling task is cancelled, which shuts the
    /// server down gracefully.
    /// - Throws: the server's error, if it stopped on one.
    public func waitUntilStopped() async throws {
        let task = self.task
        let serviceGroup = self.serviceGroup
        try await withTaskCancellationHandler {
            do {
                try await task.value
            } catch is CancellationError {
                // Requests still running after the grace period were cancelled.
                return
            }
        } onCancel: {
            Task { await serviceGroup.triggerGracefulShutdown() }
        }
    }

    /// Sleeps for `duration`, unless the server running the calling request handler
    /// starts shutting down (or the handler is cancelled) first. Routes that answer late
    /// or stall on purpose wait with this, so that they do not hold up a shutdown.
    /// - Throws: `CancellationError` when the sleep was cut short.
    public static func sleepUnlessShuttingDown(for duration: Duration) async throws {
        try await cancelWhenGracefulShutdown {
            try await Deadline.sleep(for: duration)
        }
    }
}

/// An ``InProcessServer`` could not start.
public enum InProcessServerError: Error {
    /// The server stopped before it reported a port, without an error.
    case didNotStart
}
