import Foundation
import Hummingbird
import Logging
import NIOCore

/// An in-process Hummingbird server on 127.0.0.1 with a free port, for tests that
/// need a real HTTP peer. Start it, use ``baseURL``, then ``shutdown()``.
public final class TestServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let baseURL: URL
    private let task: Task<Void, any Error>

    private init(baseURL: URL, task: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.task = task
    }

    /// Starts a server with the echo routes (see ``EchoRoutes``) plus any routes `configure` adds.
    public static func start(
        configure: @Sendable (Router<BasicRequestContext>) -> Void = { _ in }
    ) async throws -> TestServer {
        let router = Router()
        EchoRoutes.register(on: router)
        configure(router)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "strata.test-server")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "strata-test"),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger
        )
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0,
              let url = URL(string: "http://127.0.0.1:\(port)")
        else {
            task.cancel()
            throw TestServerError.didNotStart
        }
        return TestServer(baseURL: url, task: task)
    }

    /// Stops the server and waits for it to finish.
    public func shutdown() async {
        task.cancel()
        _ = await task.result
    }

    /// Runs `body` with a fresh server and always shuts it down.
    public static func with<T>(
        configure: @Sendable (Router<BasicRequestContext>) -> Void = { _ in },
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        let server = try await start(configure: configure)
        do {
            let result = try await body(server)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }
}

/// The test server could not start.
public enum TestServerError: Error {
    /// No port was reported.
    case didNotStart
}
