import GRPCCore
import GRPCNIOTransportHTTP2
import Strata

/// The demo's gRPC server, in-process on loopback: ``DemoUserService`` (and any other
/// services given), started and stopped as ``StrataDemoServer/DemoServer`` is.
///
/// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests makes these calls) -->
/// ```swift
/// let server = try await DemoGRPCServer.start()   // 127.0.0.1, a free port
/// print(server.port)
/// await server.shutdown()
/// ```
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public final class DemoGRPCServer: Sendable {
    /// The address the server is bound to.
    public let host: String
    /// The port the server listens on.
    public let port: Int
    private let server: GRPCServer<HTTP2ServerTransport.Posix>
    private let serving: Task<Void, any Error>

    private init(
        host: String, port: Int, server: GRPCServer<HTTP2ServerTransport.Posix>, serving: Task<Void, any Error>
    ) {
        self.host = host
        self.port = port
        self.server = server
        self.serving = serving
    }

    /// Starts a server and returns once it listens.
    /// - Parameters:
    ///   - host: the IPv4 address to bind, `127.0.0.1` by default.
    ///   - port: the port to listen on; `0` picks a free one (see ``port``).
    ///   - services: services served beside ``DemoUserService`` (the tests' own).
    ///   - transportSecurity: plaintext by default; TLS for the trust tests.
    /// - Throws: grpc-swift's `RuntimeError` when the server could not bind.
    public static func start(
        host: String = "127.0.0.1", port: Int = 0, services: [any RegistrableRPCService] = [],
        transportSecurity: HTTP2ServerTransport.Posix.TransportSecurity = .plaintext
    ) async throws -> DemoGRPCServer {
        let transport = HTTP2ServerTransport.Posix(
            address: .ipv4(host: host, port: port), transportSecurity: transportSecurity)
        let server = GRPCServer(transport: transport, services: [DemoUserService()] + services)
        let serving = Task { try await server.serve() }
        do {
            guard let address = try await transport.listeningAddress.ipv4 else {
                throw RuntimeError(code: .transportError, message: "the demo gRPC server is not on IPv4")
            }
            return DemoGRPCServer(host: host, port: address.port, server: server, serving: serving)
        } catch {
            server.beginGracefulShutdown()
            serving.cancel()
            _ = await serving.result
            throw error
        }
    }

    /// Stops the server and waits until it has: it stops accepting calls and lets the
    /// calls in flight finish (those still running after `grace` are cancelled).
    public func shutdown(grace: Duration = .milliseconds(500)) async {
        server.beginGracefulShutdown()
        let serving = self.serving
        // Strata's own sleep: cancelled once the server has stopped, it releases its timer
        // at once (a cancelled `Task.sleep` keeps it until its deadline on Linux).
        let deadline = Task {
            try await Deadline.sleep(for: grace)
            serving.cancel()
        }
        _ = await serving.result
        deadline.cancel()
    }
}
