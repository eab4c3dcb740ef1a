import Foundation
import Hummingbird
import Logging
import NIOSSL
import StrataServerLifecycle

/// The demo API served in-process by Hummingbird: users with photos, search, form
/// login, JSON registration, multipart avatars, a bearer-protected `/me`, and
/// deliberately failing endpoints. `swift run --enable-all-traits strata-demo` tours Strata against it,
/// and the integration tests start the same server.
///
/// ```swift
/// let server = try await DemoServer.start()          // 127.0.0.1, a free port
/// print(server.baseURL)                              // http://127.0.0.1:54321
/// await server.shutdown()
/// ```
///
/// See ``DemoRoutes`` for the endpoints. Every instance has its own state: the
/// `/flaky` counter, issued tokens and registered users start afresh.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public final class DemoServer: Sendable {
    /// `http://HOST:PORT` (`https://localhost:PORT` over TLS), with the port the server
    /// actually listens on.
    public let baseURL: URL
    /// The port the server listens on.
    public let port: Int
    /// The upload host `GET /upload-host` names: a ``ResumableUploadServer`` on the same
    /// address, which cuts the first `PATCH` of each upload after ``uploadCut`` bytes.
    public let uploadHost: ResumableUploadServer
    private let server: InProcessServer

    /// Where the upload host cuts each upload's first `PATCH`: after 1 MiB.
    public static let uploadCut = 1 << 20

    private init(baseURL: URL, server: InProcessServer, uploadHost: ResumableUploadServer) {
        self.baseURL = baseURL
        self.port = server.port
        self.server = server
        self.uploadHost = uploadHost
    }

    /// Starts a server and returns once it accepts connections.
    /// - Parameters:
    ///   - host: the address to bind, `127.0.0.1` by default.
    ///   - port: the port to listen on; `0` picks a free one (see ``port``).
    ///   - stopsOnSignals: whether `SIGINT` and `SIGTERM` shut the server down
    ///     gracefully (for a server run from the command line).
    ///   - logger: the server's logger; by default it only logs critical errors.
    ///   - tlsConfiguration: when given, the server speaks HTTPS with it, and ``baseURL``
    ///     is `https://localhost:PORT` (the name a test certificate carries).
    /// - Throws: ``DemoServerError/didNotStart`` when the server could not bind, or
    ///   Hummingbird's error.
    public static func start(
        host: String = "127.0.0.1",
        port: Int = 0,
        stopsOnSignals: Bool = false,
        logger: Logger? = nil,
        tlsConfiguration: TLSConfiguration? = nil
    ) async throws -> DemoServer {
        let uploadHost: ResumableUploadServer
        do {
            uploadHost = try await ResumableUploadServer.start(host: host, cuts: .eachUploadOnce(after: uploadCut))
        } catch {
            throw DemoServerError.didNotStart
        }
        let router = Router()
        DemoRoutes.register(on: router, store: DemoStore(), uploadHost: uploadHost.baseURL)
        let server: InProcessServer
        do {
            server = try await InProcessServer.start(
                router: router,
                host: host,
                port: port,
                serverName: "strata-demo",
                logger: logger ?? Self.quietLogger,
                stopsOnSignals: stopsOnSignals,
                tlsConfiguration: tlsConfiguration
            )
        } catch InProcessServerError.didNotStart {
            await uploadHost.shutdown()
            throw DemoServerError.didNotStart
        } catch {
            await uploadHost.shutdown()
            throw error
        }
        let origin = tlsConfiguration == nil ? "http://\(Self.urlHost(host))" : "https://localhost"
        guard let url = URL(string: "\(origin):\(server.port)") else {
            await server.shutdown()
            await uploadHost.shutdown()
            throw DemoServerError.didNotStart
        }
        return DemoServer(baseURL: url, server: server, uploadHost: uploadHost)
    }

    /// Stops the server and waits until it has. The shutdown is graceful: the server
    /// stops accepting, closes idle connections and lets requests in flight finish (those
    /// still running after half a second are cancelled); no connection it accepted is
    /// dropped unserved.
    public func shutdown() async {
        await server.shutdown()
        await uploadHost.shutdown()
    }

    /// Waits until the server stops: after a signal (when started with
    /// `stopsOnSignals`), after ``shutdown()``, or when the calling task is cancelled,
    /// which shuts the server down gracefully.
    /// - Throws: the server's error, if it stopped on one.
    public func runUntilCancelled() async throws {
        try await server.waitUntilStopped()
    }

    private static var quietLogger: Logger {
        var logger = Logger(label: "strata.demo-server")
        logger.logLevel = .critical
        return logger
    }

    /// IPv6 literals go in brackets in a URL.
    private static func urlHost(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}
