import Foundation
import Hummingbird
import Logging
import StrataServerLifecycle

/// An in-process Hummingbird server on 127.0.0.1 with a free port, for tests that
/// need a real HTTP peer. Start it, use ``baseURL``, then ``shutdown()``.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public final class TestServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let baseURL: URL
    private let server: InProcessServer

    private init(baseURL: URL, server: InProcessServer) {
        self.baseURL = baseURL
        self.server = server
    }

    /// Starts a server with the echo routes (see ``EchoRoutes``) plus any routes `configure` adds,
    /// on `port` (`0`, the default, for a free one; a port a stopped server had, to start
    /// it again where its clients look).
    public static func start(
        port: Int = 0,
        configure: @Sendable (Router<BasicRequestContext>) -> Void = { _ in }
    ) async throws -> TestServer {
        let router = Router()
        EchoRoutes.register(on: router)
        configure(router)
        var logger = Logger(label: "strata.test-server")
        logger.logLevel = .critical
        let server: InProcessServer
        do {
            server = try await InProcessServer.start(
                router: router, port: port, serverName: "strata-test", logger: logger)
        } catch {
            throw TestServerError.didNotStart
        }
        guard let url = URL(string: "http://127.0.0.1:\(server.port)") else {
            await server.shutdown()
            throw TestServerError.didNotStart
        }
        return TestServer(baseURL: url, server: server)
    }

    /// Stops the server and waits for it to finish. The shutdown is graceful: the server
    /// stops accepting, closes idle connections and ends `/hang` and `/stall-body` at
    /// once; a request still running after half a second is cancelled. No connection it
    /// accepted is dropped unserved (see `InProcessServer`).
    public func shutdown() async {
        await server.shutdown()
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
