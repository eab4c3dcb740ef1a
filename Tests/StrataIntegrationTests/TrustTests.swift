import AsyncHTTPClient
import Foundation
import NIOSSL
import Strata
import StrataAsyncHTTPClient
import StrataServerLifecycle
import StrataTestCertificates
import StrataTestSupport
import StrataURLSession
import Testing

/// Whom a client trusts, against real TLS servers on 127.0.0.1 with certificates made as
/// the tests run. This file imports NIOSSL and Strata side by side: their names do not clash.
@Suite(.serialized) struct TrustTests {
    /// What a call to `server` with `transport` ended in: the body, or the TLS failure.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func outcome(
        _ transport: some Transport, _ server: InProcessServer, host: String = "localhost"
    ) async throws -> Outcome {
        do {
            return .body(try await Networker(transport: transport).send(TLSServers.hello(server, host: host)))
        } catch let error as StrataError {
            let transportError = try #require(error.underlying as? TransportError, "\(error)")
            #expect(error.kind == .transport)
            #expect(transportError.kind == .tls)
            return .refused(try #require(transportError.tlsFailure, "\(transportError)"))
        }
    }

    enum Outcome: Equatable {
        case body(String)
        case refused(TLSFailure)

        static let hello = Outcome.body(helloOverTLS)
        static func refused(_ reason: TLSFailure.Reason) -> Outcome { .refused(TLSFailure(reason)) }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func withServers(_ body: (TLSServers) async throws -> Void) async throws {
        let servers = try await TLSServers.start()
        do {
            try await body(servers)
        } catch {
            await servers.shutdown()
            throw error
        }
        await servers.shutdown()
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func theDefaultTrustRefusesEveryTestServerOnBothTransports() async throws {
        try await Self.withServers { servers in
            let ahc = AsyncHTTPClientTransport()
            for server in [
                servers.good, servers.expired, servers.wrongHost, servers.selfSigned, servers.fromOtherAuthority,
            ] {
                #expect(try await Self.outcome(ahc, server) == .refused(.untrustedCertificate))
            }
            try await ahc.shutdown()
            // Why URLSession refuses is curl's message on Linux (it checks the chain before the
            // dates); Apple's URLSession gives a code of its own, perhaps another reason.
            let session = try URLSessionTransport(trust: .system)
            try await expectOnLinux("URLSession's reasons as FoundationNetworking (libcurl) gives them") {
                for server in [servers.good, servers.expired, servers.selfSigned, servers.fromOtherAuthority] {
                    let outcome = try await Self.outcome(session, server)
                    #expect(outcome == .refused(.untrustedCertificate))
                }
            }
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func theCAAsAnAdditionalRootAcceptsTheGoodLeafOnly() async throws {
        try await Self.withServers { servers in
            let transport = try AsyncHTTPClientTransport(
                trust: ServerTrust(default: TrustPolicy(roots: .systemAnd([servers.authority.root.certificate]))))
            #expect(try await Self.outcome(transport, servers.good) == .hello)
            #expect(try await Self.outcome(transport, servers.good, host: "127.0.0.1") == .hello)
            // BoringSSL says CERTIFICATE_VERIFY_FAILED for an expired leaf too.
            #expect(
                try await Self.outcome(transport, servers.expired) == .refused(.untrustedCertificate))
            #expect(try await Self.outcome(transport, servers.wrongHost) == .refused(.hostNameMismatch))
            #expect(
                try await Self.outcome(transport, servers.selfSigned) == .refused(.untrustedCertificate))
            #expect(
                try await Self.outcome(transport, servers.fromOtherAuthority)
                    == .refused(.untrustedCertificate))
            try await transport.shutdown()
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func onlyTheGivenRootsAreTrusted() async throws {
        try await Self.withServers { servers in
            let ours = try AsyncHTTPClientTransport(
                trust: ServerTrust(default: TrustPolicy(roots: .only([servers.authority.root.certificate]))))
            #expect(try await Self.outcome(ours, servers.good) == .hello)
            let theirs = try AsyncHTTPClientTransport(
                trust: ServerTrust(default: TrustPolicy(roots: .only([servers.otherAuthority.root.certificate]))))
            #expect(try await Self.outcome(theirs, servers.good) == .refused(.untrustedCertificate))
            #expect(try await Self.outcome(theirs, servers.fromOtherAuthority) == .hello)
            try await ours.shutdown()
            try await theirs.shutdown()
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func mutualTLSSucceedsWithTheIdentityAndFailsWithout() async throws {
        try await Self.withServers { servers in
            let roots = TrustPolicy.Roots.only([servers.authority.root.certificate])
            let with = try AsyncHTTPClientTransport(
                trust: ServerTrust(default: TrustPolicy(roots: roots, clientIdentity: servers.client.clientIdentity)))
            #expect(try await Self.outcome(with, servers.mutual) == .hello)
            let without = try AsyncHTTPClientTransport(trust: ServerTrust(default: TrustPolicy(roots: roots)))
            #expect(
                try await Self.outcome(without, servers.mutual) == .refused(.clientCertificateRequired))
            // A certificate from a CA the server does not take is refused as well.
            let stranger = try servers.otherAuthority.issue(dnsNames: ["client"], ipAddresses: [], usage: .client)
            let wrong = try AsyncHTTPClientTransport(
                trust: ServerTrust(default: TrustPolicy(roots: roots, clientIdentity: stranger.clientIdentity)))
            #expect(try await Self.outcome(wrong, servers.mutual) == .refused(.handshakeFailed))
            for transport in [with, without, wrong] { try await transport.shutdown() }
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func aMinimumVersionAboveTheServersFails() async throws {
        try await Self.withServers { servers in
            let roots = TrustPolicy.Roots.only([servers.authority.root.certificate])
            let tls13 = try AsyncHTTPClientTransport(
                trust: ServerTrust(default: TrustPolicy(roots: roots, minimumVersion: .tls13)))
            #expect(try await Self.outcome(tls13, servers.tls12Only) == .refused(.protocolVersion))
            #expect(try await Self.outcome(tls13, servers.good) == .hello)
            let tls12 = try AsyncHTTPClientTransport(trust: ServerTrust(default: TrustPolicy(roots: roots)))
            #expect(try await Self.outcome(tls12, servers.tls12Only) == .hello)
            try await tls13.shutdown()
            try await tls12.shutdown()
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func twoHostsTwoPoliciesOneClient() async throws {
        try await Self.withServers { servers in
            // One server, two names: `localhost` trusts the CA, `127.0.0.1` keeps the system's trust.
            let trust = try ServerTrust(hosts: [
                "localhost": TrustPolicy(roots: .only([servers.authority.root.certificate]))
            ])
            let transport = try AsyncHTTPClientTransport(trust: trust)
            #expect(try await Self.outcome(transport, servers.good, host: "localhost") == .hello)
            #expect(
                try await Self.outcome(transport, servers.good, host: "127.0.0.1")
                    == .refused(.untrustedCertificate))
            // And the other way round, with a wildcard that does not match `localhost`.
            let swapped = try ServerTrust(
                hosts: [
                    "127.0.0.1": TrustPolicy(roots: .only([servers.authority.root.certificate])),
                    "*.localhost": .system,
                ])
            let other = try AsyncHTTPClientTransport(trust: swapped)
            #expect(try await Self.outcome(other, servers.good, host: "127.0.0.1") == .hello)
            #expect(try await Self.outcome(other, servers.good) == .refused(.untrustedCertificate))
            try await transport.shutdown()
            try await other.shutdown()
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func theDefaultClientTakesTrust() async throws {
        try await Self.withServers { servers in
            let networker = try Networker(
                trust: ServerTrust(default: TrustPolicy(roots: .only([servers.authority.root.certificate]))))
            #expect(try await networker.send(TLSServers.hello(servers.good)) == TLSServers.body)
        }
    }

    @Test func asyncHTTPClientRefusesPinsWhenMade() throws {
        let pin = try PublicKeyPin(sha256: Data(count: 32))
        let trust = try ServerTrust(hosts: ["api.example.com": TrustPolicy(pins: [pin])])
        #expect(throws: TrustConfigurationError.self) { try AsyncHTTPClientTransport(trust: trust) }
        do {
            _ = try AsyncHTTPClientTransport(trust: trust)
        } catch {
            #expect(error.setting == .pins)
            #expect(error.transport == "AsyncHTTPClientTransport")
            #expect(error.host == "api.example.com")
            #expect(error.description.hasPrefix("AsyncHTTPClientTransport cannot apply pins (host api.example.com): "))
        }
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        defer { try? client.syncShutdown() }
        #expect(throws: TrustConfigurationError.self) { try AsyncHTTPClientTransport(client: client, trust: trust) }
    }

    @Test func asyncHTTPClientRefusesKeysItCannotRead() throws {
        let certificate = try TLSCertificate(der: Data([0x30, 0x03, 0x02, 0x01, 0x01]))
        let policy = TrustPolicy(roots: .only([certificate]))
        do {
            _ = try AsyncHTTPClientTransport(trust: ServerTrust(default: policy))
            Issue.record("a certificate swift-nio-ssl cannot read was taken")
        } catch {
            #expect(error.setting == .roots)
            #expect(error.transport == "AsyncHTTPClientTransport")
            #expect(error.host == nil)
        }
        let identity = ClientIdentity.pkcs12(Data("not an archive".utf8), passphrase: "x")
        do {
            _ = try AsyncHTTPClientTransport(trust: ServerTrust(default: TrustPolicy(clientIdentity: identity)))
            Issue.record("an archive swift-nio-ssl cannot read was taken")
        } catch {
            #expect(error.setting == .clientIdentity)
        }
    }

    #if os(Linux)
        @Test func urlSessionOnLinuxRefusesEverySettingButTheSystemsTrust() throws {
            let pin = try PublicKeyPin(sha256: Data(count: 32))
            let certificate = try TLSCertificate(der: Data([0x30, 0x00]))
            let cases: [(TrustPolicy, TrustConfigurationError.Setting)] = [
                (TrustPolicy(roots: .systemAnd([certificate])), .roots),
                (TrustPolicy(pins: [pin]), .pins),
                (TrustPolicy(clientIdentity: .pkcs12(Data(), passphrase: "")), .clientIdentity),
                (TrustPolicy(minimumVersion: .tls13), .minimumVersion),
            ]
            for (policy, setting) in cases {
                do {
                    _ = try URLSessionTransport(trust: ServerTrust(hosts: ["*.example.com": policy]))
                    Issue.record("URLSessionTransport took \(setting) on Linux")
                } catch {
                    #expect(error.setting == setting)
                    #expect(error.transport == "URLSessionTransport")
                    #expect(error.host == "*.example.com")
                }
            }
            _ = try URLSessionTransport(trust: ServerTrust(hosts: ["*.example.com": .system]))
        }

        @Test func urlSessionReportsWhyOnLinux() async throws {
            try await Self.withServers { servers in
                let session = URLSessionTransport()
                // curl checks the chain before the dates and the name: all untrusted here.
                let wrongHost = try await Self.outcome(session, servers.wrongHost)
                #expect(wrongHost == .refused(.untrustedCertificate))
                let expired = try await Self.outcome(session, servers.expired)
                #expect(expired == .refused(.untrustedCertificate))
            }
        }
    #endif

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func theCertificatesKeyIsItsPin() throws {
        let authority = try TestCertificateAuthority()
        let leaf = try authority.issue()
        let key = try #require(leaf.certificate.subjectPublicKeyInfo)
        #expect(try PublicKeyPin(subjectPublicKeyInfo: key) == leaf.pin)
        #expect(
            authority.root.certificate.subjectPublicKeyInfo.map { try? PublicKeyPin(subjectPublicKeyInfo: $0) }
                == authority.root.pin)
        #expect(leaf.pin != authority.root.pin)
    }
}
