import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Strata
import StrataDemo
import StrataDemoServer
import StrataGRPC
import StrataTestCertificates

/// The tour's "Trust" section: the demo API served over HTTPS (and its gRPC service over
/// TLS) with a certificate from a CA the demo makes as it runs, called with the system's
/// trust (refused), with the CA trusted, with the server's key pinned, and with a wrong pin
/// (refused, the server's keys printed).
///
/// Pins go over the HTTP transport where it can check them (URLSession on Apple
/// platforms); AsyncHTTPClient refuses them when it is made, which the tour shows, and
/// the pinned calls then go over gRPC, whose verification Strata does.
///
/// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests runs this tour) -->
/// ```swift
/// let steps = await TrustTour(transport: transport) { try AsyncHTTPClientTransport(trust: $0) }.run { print($0.summary) }
/// ```
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct TrustTour: Sendable {
    /// The tour's HTTP transport, with the system's trust.
    public let transport: any Transport
    /// Makes a transport of the same kind that trusts as told (it may refuse a setting).
    public let makeTransport: @Sendable (ServerTrust) throws -> any Transport

    /// A tour over `transport`, and transports of its kind made by `makeTransport`.
    public init(transport: any Transport, makeTransport: @escaping @Sendable (ServerTrust) throws -> any Transport) {
        self.transport = transport
        self.makeTransport = makeTransport
    }

    /// Starts the HTTPS and gRPC-over-TLS servers, runs the steps in order (telling
    /// `onStep` each outcome), stops the servers and returns the steps.
    public func run(onStep: @Sendable (GRPCTour.Step) -> Void = { _ in }) async -> [GRPCTour.Step] {
        let servers: Servers
        do {
            servers = try await Servers.start()
        } catch {
            let step = GRPCTour.Step(
                title: "start the demo's HTTPS servers", passed: false, summary: "\(error)", duration: .zero)
            onStep(step)
            return [step]
        }
        let steps = await GRPCTour.Step.run(stepBodies(servers), onStep: onStep)
        await servers.shutdown()
        return steps
    }

    /// The demo's CA and leaf, the demo API over HTTPS, and the gRPC service over TLS.
    struct Servers {
        let authority: TestCertificateAuthority
        let leaf: TestIdentity
        let http: DemoServer
        let grpc: DemoGRPCServer

        static func start() async throws -> Servers {
            let authority = try TestCertificateAuthority(commonName: "Strata Demo CA")
            let leaf = try authority.issue()
            let http = try await DemoServer.start(tlsConfiguration: leaf.serverTLSConfiguration())
            do {
                let grpc = try await DemoGRPCServer.start(
                    transportSecurity: .tls(
                        certificateChain: [.bytes(Array(leaf.certificatePEM.utf8), format: .pem)],
                        privateKey: .bytes(Array(leaf.privateKeyPEM.utf8), format: .pem)))
                return Servers(authority: authority, leaf: leaf, http: http, grpc: grpc)
            } catch {
                await http.shutdown()
                throw error
            }
        }

        func shutdown() async {
            await http.shutdown()
            await grpc.shutdown()
        }
    }

    private func stepBodies(_ servers: Servers) -> [(String, () async throws -> String)] {
        let api = DemoAPI(baseURL: servers.http.baseURL)
        let roots = TrustPolicy.Roots.only([servers.authority.root.certificate])
        let pinned = ServerTrust(default: TrustPolicy(roots: roots, pins: [servers.leaf.pin]))
        return [
            (
                "GET /users/1 over HTTPS with the system's trust: refused",
                {
                    do {
                        let user = try await Networker(transport: transport).send(api.user(id: 1))
                        throw TourFailure("the demo's own CA was trusted: \(user.name)")
                    } catch let error as StrataError {
                        guard let failure = (error.underlying as? TransportError)?.tlsFailure else { throw error }
                        return "refused: \(failure) — a CA nobody told the client about"
                    }
                }
            ),
            (
                "the demo CA trusted for localhost: 200",
                {
                    let trusting: any Transport
                    do {
                        trusting = try makeTransport(ServerTrust(hosts: ["localhost": TrustPolicy(roots: roots)]))
                    } catch let error as TrustConfigurationError {
                        return "refused when made, as it should be where it cannot apply roots: \(error.reason)"
                    }
                    let user = try await Networker(transport: trusting).send(api.user(id: 1))
                    return
                        "User(name: \"\(user.name)\") from \(servers.http.baseURL.absoluteString), roots: the demo CA only"
                }
            ),
            (
                "the server's key pinned, over HTTP",
                {
                    let pinning: any Transport
                    do {
                        pinning = try makeTransport(pinned)
                    } catch let error as TrustConfigurationError {
                        return
                            "refused when made, as it should be: \(error.description.prefix(100))… (pinned over gRPC below)"
                    }
                    let user = try await Networker(transport: pinning).send(api.user(id: 1))
                    return "User(name: \"\(user.name)\"), the key \(servers.leaf.pin)"
                }
            ),
            (
                "the server's key pinned, over gRPC: the call goes through",
                {
                    let name = try await Self.userName(port: servers.grpc.port, trust: pinned)
                    return "GetUser(1) → \(name), pinned to \(servers.leaf.pin)"
                }
            ),
            (
                "a wrong pin, over gRPC: refused, with the server's keys",
                {
                    let stranger = try TestCertificateAuthority(commonName: "Stranger").root.pin
                    let wrong = ServerTrust(default: TrustPolicy(roots: roots, pins: [stranger]))
                    do {
                        let name = try await Self.userName(port: servers.grpc.port, trust: wrong)
                        throw TourFailure("a wrong pin was accepted: \(name)")
                    } catch let error as StrataError {
                        guard let failure = (error.underlying as? TransportError)?.tlsFailure,
                            failure.reason == .pinMismatch, failure.presentedPins.first == servers.leaf.pin
                        else { throw error }
                        return "refused: \(failure)"
                    }
                }
            ),
        ]
    }

    /// `GetUser(1)` over TLS to the demo's gRPC server, trusting as `trust` says.
    private static func userName(port: Int, trust: ServerTrust) async throws -> String {
        var configuration = GRPCNetworker.Configuration()
        configuration.logger.logLevel = .critical
        configuration.timeout = .seconds(10)
        let networker = try GRPCNetworker(host: "localhost", port: port, trust: trust, configuration: configuration)
        let connections = Task { try await networker.runConnections() }
        defer {
            networker.beginGracefulShutdown()
            connections.cancel()
        }
        let request = try RequestDescription(
            route: GRPCRoute(Strata_Demo_V1_UserService.Method.GetUser.descriptor),
            message: Strata_Demo_V1_GetUserRequest.with { $0.id = 1 })
        return try await networker.send(GRPCEndpoint(request, decoding: User.self)).name
    }
}
