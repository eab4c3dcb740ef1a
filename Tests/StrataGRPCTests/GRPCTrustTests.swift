import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Strata
import StrataGRPC
import StrataGRPCDemo
import StrataTestCertificates
import Testing

/// Whom a gRPC client trusts, against the demo's gRPC server over TLS on 127.0.0.1 with
/// certificates made as the tests run: the HTTP trust matrix, through `GRPCNetworker`.
@Suite("GRPCNetworker over TLS", .serialized)
struct GRPCTrustTests {
    enum Outcome: Equatable {
        case user(String)
        case refused(TLSFailure)

        static func refused(_ reason: TLSFailure.Reason) -> Outcome { .refused(TLSFailure(reason)) }
    }

    /// Serves the demo over TLS with `identity` (requiring a client certificate from
    /// `clientAuthority` when given), and calls `GetUser(1)` through a client trusting as
    /// `trust` says.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    static func call(
        _ identity: TestIdentity, trust: ServerTrust, host: String = "localhost",
        requiringClientCertificatesFrom clientAuthority: TestCertificateAuthority? = nil
    ) async throws -> Outcome {
        let chain: [TLSConfig.CertificateSource] = [.bytes(Array(identity.certificatePEM.utf8), format: .pem)]
        let key = TLSConfig.PrivateKeySource.bytes(Array(identity.privateKeyPEM.utf8), format: .pem)
        let security: HTTP2ServerTransport.Posix.TransportSecurity =
            if let clientAuthority {
                .mTLS(certificateChain: chain, privateKey: key) { config in
                    config.trustRoots = .certificates([
                        .bytes(Array(clientAuthority.root.certificatePEM.utf8), format: .pem)
                    ])
                    config.clientCertificateVerification = .noHostnameVerification
                }
            } else {
                .tls(certificateChain: chain, privateKey: key)
            }
        let server = try await DemoGRPCServer.start(transportSecurity: security)
        var configuration = GRPCNetworker.Configuration()
        configuration.timeout = .seconds(10)
        let networker = try GRPCNetworker(host: host, port: server.port, trust: trust, configuration: configuration)
        let connections = Task { try await networker.runConnections() }
        defer { connections.cancel() }
        let outcome: Outcome
        let request = try RequestDescription(
            route: GRPCRoute(Strata_Demo_V1_UserService.Method.GetUser.descriptor),
            message: Strata_Demo_V1_GetUserRequest.with { $0.id = 1 })
        do throws(StrataError) {
            let user = try await networker.send(GRPCEndpoint(request, decoding: Strata_Demo_V1_UserMessage.self))
            outcome = .user(user.name)
        } catch {
            let transportError = error.underlying as? TransportError
            #expect(error.kind == .transport, "\(error)")
            #expect(transportError?.kind == .tls, "\(error)")
            outcome = .refused(transportError?.tlsFailure ?? TLSFailure(.handshakeFailed))
        }
        networker.beginGracefulShutdown()
        _ = await connections.result
        await server.shutdown()
        return outcome
    }

    @Test func theMatrix() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let authority = try TestCertificateAuthority()
        let other = try TestCertificateAuthority(commonName: "Other CA")
        let leaf = try authority.issue()
        let now = Date()
        let expired = try authority.issue(validity: (now - 7 * 86_400)...(now - 86_400))
        let wrongHost = try authority.issue(dnsNames: ["elsewhere.example"], ipAddresses: [])
        let selfSigned = try TestCertificateAuthority.selfSigned()
        let only = ServerTrust(default: TrustPolicy(roots: .only([authority.root.certificate])))
        let also = ServerTrust(default: TrustPolicy(roots: .systemAnd([authority.root.certificate])))

        // The system's trust refuses every test server.
        #expect(try await Self.call(leaf, trust: .system) == .refused(.untrustedCertificate))
        #expect(try await Self.call(selfSigned, trust: .system) == .refused(.untrustedCertificate))
        // The CA as the only root: grpc-swift-nio-transport's own verification (BoringSSL).
        #expect(try await Self.call(leaf, trust: only) == .user("Ann"))
        #expect(try await Self.call(leaf, trust: only, host: "127.0.0.1") == .user("Ann"))
        #expect(try await Self.call(expired, trust: only) == .refused(.untrustedCertificate))
        #expect(try await Self.call(wrongHost, trust: only) == .refused(.hostNameMismatch))
        #expect(try await Self.call(other.issue(), trust: only) == .refused(.untrustedCertificate))
        // The CA beside the system's roots: verified by Strata with swift-certificates, which tells
        // an expired leaf apart.
        #expect(try await Self.call(leaf, trust: also) == .user("Ann"))
        #expect(try await Self.call(expired, trust: also) == .refused(.expired))
        #expect(try await Self.call(wrongHost, trust: also) == .refused(.hostNameMismatch))
        #expect(try await Self.call(selfSigned, trust: also) == .refused(.untrustedCertificate))
    }

    @Test func pinsAcceptTheRightKeyAndABackupAndNameTheKeysOnAMismatch() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let authority = try TestCertificateAuthority()
        let leaf = try authority.issue()
        let stranger = try TestCertificateAuthority(commonName: "Stranger").issue()
        let roots = TrustPolicy.Roots.only([authority.root.certificate])
        func pinned(_ pins: [PublicKeyPin]) -> ServerTrust {
            ServerTrust(default: TrustPolicy(roots: roots, pins: pins))
        }

        #expect(try await Self.call(leaf, trust: pinned([leaf.pin])) == .user("Ann"))
        #expect(try await Self.call(leaf, trust: pinned([authority.root.pin])) == .user("Ann"))
        // A backup pin (a key not in use yet) beside the current one.
        #expect(try await Self.call(leaf, trust: pinned([stranger.pin, leaf.pin])) == .user("Ann"))
        // A wrong pin: refused, with the keys the verified chain showed, leaf first.
        let refused = try await Self.call(leaf, trust: pinned([stranger.pin]))
        #expect(refused == .refused(TLSFailure(.pinMismatch, presentedPins: [leaf.pin, authority.root.pin])))
        // Pins over the system's roots alone: the test CA is not trusted, whatever the pin.
        #expect(
            try await Self.call(leaf, trust: ServerTrust(default: TrustPolicy(pins: [leaf.pin])))
                == .refused(.untrustedCertificate))
    }

    @Test func mutualTLSSucceedsWithTheIdentityAndFailsWithout() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let authority = try TestCertificateAuthority()
        let clients = try TestCertificateAuthority(commonName: "Client CA")
        let leaf = try authority.issue()
        let client = try clients.issue(dnsNames: ["client"], ipAddresses: [], usage: .client)
        let roots = TrustPolicy.Roots.only([authority.root.certificate])
        let with = ServerTrust(default: TrustPolicy(roots: roots, clientIdentity: client.clientIdentity))
        #expect(try await Self.call(leaf, trust: with, requiringClientCertificatesFrom: clients) == .user("Ann"))
        let without = ServerTrust(default: TrustPolicy(roots: roots))
        #expect(
            try await Self.call(leaf, trust: without, requiringClientCertificatesFrom: clients)
                == .refused(.clientCertificateRequired))
    }

    @Test func perHostPoliciesAndWhatTheTransportRefuses() throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let strict = TrustPolicy(minimumVersion: .tls13)
        let trust = try ServerTrust(hosts: ["api.example.com": strict, "**.internal.example": .system])
        #expect(try GRPCTrust(trust, host: "db.internal.example").policy == .system)
        #expect(try GRPCTrust(trust, host: "other.example").policy == .system)
        do {
            _ = try GRPCTrust(trust, host: "api.example.com")
            Issue.record("a TLS 1.3 minimum was taken")
        } catch {
            #expect(error.setting == .minimumVersion)
            #expect(error.transport == "HTTP2ClientTransport.Posix")
            #expect(error.host == "api.example.com")
        }
        let archive = ServerTrust(default: TrustPolicy(clientIdentity: .pkcs12(Data([1, 2, 3]), passphrase: "")))
        #expect(throws: TrustConfigurationError.self) { try GRPCTrust(archive, host: "localhost") }
    }
}
