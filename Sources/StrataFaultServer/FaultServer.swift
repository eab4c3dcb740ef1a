import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// An HTTP/1.1 server on 127.0.0.1 that misbehaves at the byte level, for tests of how
/// clients handle broken peers. The request's path picks the behaviour (see
/// ``FaultRoute``); well-behaved routes keep the connection alive.
///
/// It writes its responses byte by byte on SwiftNIO (no HTTP library in between), reads
/// requests itself (the head up to the blank line, then `Content-Length` body bytes;
/// chunked request bodies get a `501` and the connection closes), and records every
/// request it reads (``requests``), so that a test can check what reached it, for
/// example that no `Authorization` header followed a redirect to a second server.
///
/// ```swift
/// let server = try await FaultServer.start()
/// let url = server.url(for: .trickle)
/// // … send requests …
/// #expect(server.requestCount == 1)
/// await server.shutdown()
/// ```
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public final class FaultServer: Sendable {
    /// The port the server listens on, chosen by the system.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public let baseURL: URL

    private let listener: any Channel
    private let registry: ConnectionRegistry
    /// Accepts connections and serves them; ends once the listener and every connection closed.
    private let task: Task<Void, Never>

    private init(port: Int, listener: any Channel, registry: ConnectionRegistry, task: Task<Void, Never>) {
        self.port = port
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
        self.listener = listener
        self.registry = registry
        self.task = task
    }

    /// Starts a server on 127.0.0.1 with a free port.
    /// - Throws: SwiftNIO's error when the server cannot bind.
    public static func start() async throws -> FaultServer {
        let registry = ConnectionRegistry()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    // Refused before it has an async writer once the server shut down;
                    // refused after it has one, the channel is not active yet, so SwiftNIO
                    // still owns the writer and finishes it as the channel closes.
                    guard registry.isAccepting else { throw FaultServerError.shutDown }
                    let connection = try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    guard registry.setUp(connection) else { throw FaultServerError.shutDown }
                    return connection
                }
            }
        guard let port = listener.channel.localAddress?.port else {
            try? await listener.channel.close()
            throw FaultServerError.noPort
        }
        let task = Task { await accept(on: listener, registry: registry) }
        return FaultServer(port: port, listener: listener.channel, registry: registry, task: task)
    }

    /// Runs `body` with a fresh server and always shuts it down.
    public static func with<T>(_ body: (FaultServer) async throws -> T) async throws -> T {
        let server = try await start()
        let result: Result<T, any Error>
        do {
            result = .success(try await body(server))
        } catch {
            result = .failure(error)
        }
        await server.shutdown()
        return try result.get()
    }

    /// The URL of `route` on this server.
    public func url(for route: FaultRoute) -> URL {
        URL(string: baseURL.absoluteString + route.target)!
    }

    /// Every request the server has read, in the order it read them.
    public var requests: [RecordedRequest] { registry.requests }

    /// How many requests the server has read.
    public var requestCount: Int { registry.requests.count }

    /// How many connections the server has accepted.
    public var connectionCount: Int { registry.connectionCount }

    /// How many connections are open now: accepted and not yet closed by either side.
    public var openConnectionCount: Int { registry.openCount }

    /// Stops listening, closes every connection (ending any behaviour still running) and
    /// waits until all of them have finished. Calling it again does nothing more.
    ///
    /// The accepting task is not cancelled: connections accepted but not yet handed over
    /// would then never be closed, which SwiftNIO treats as a fatal error. Instead the
    /// listener closes, every connection handed over from then on is closed at once,
    /// closing the open ones makes their behaviours fail their next read or write, and
    /// connections set up that never reached the accept loop are finished and closed.
    public func shutdown() async {
        try? await listener.close()
        for channel in registry.shutDown() {
            try? await channel.close()
        }
        await task.value
        for connection in registry.takeUnserved() {
            // Finishes the outbound writer, then closes the channel.
            try? await connection.executeThenClose { _, _ in }
        }
    }

    /// Accepts connections until the listener closes, serving each in a child task;
    /// once the server shuts down, connections still handed over are closed unserved.
    private static func accept(
        on listener: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>,
        registry: ConnectionRegistry
    ) async {
        await withDiscardingTaskGroup { group in
            try? await listener.executeThenClose { connections in
                for try await connection in connections {
                    group.addTask {
                        guard let number = registry.opened(connection) else {
                            try? await connection.executeThenClose { _, _ in }
                            return
                        }
                        await FaultConnection(number: number, registry: registry).serve(connection)
                        registry.closed(number)
                    }
                }
            }
        }
    }
}

/// The fault server could not start.
public enum FaultServerError: Error, Sendable {
    /// The listening socket reported no port.
    case noPort
    /// A connection arrived after the server shut down, and was refused.
    case shutDown
}
