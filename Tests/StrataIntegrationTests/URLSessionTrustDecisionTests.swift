import Crypto
import Foundation
import Strata
import StrataTestCertificates
import Testing

@testable import StrataURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The decisions URLSessionTransport takes on Apple platforms under a `ServerTrust` —
/// anchors, the failure's reason, the pin comparison over the chain, which identity is
/// presented with which chain, when a PKCS #12 archive is imported — checked on Linux with
/// stand-ins of Security's trust object and import (the Apple branch only calls Security;
/// scripts/check-darwin.sh type-checks it).
@Suite("URLSessionTrust's decisions, apart from Security")
struct URLSessionTrustDecisionTests {
    /// A server-trust challenge's trust object, as a test sets it up and reads it back.
    final class RecordedEvaluation: ServerTrustEvaluation {
        var anchors: [([TLSCertificate], only: Bool)] = []
        var verifications = 0
        let status: Int32?
        let chain: [Data]

        init(status: Int32? = nil, chain: [Data] = []) {
            self.status = status
            self.chain = chain
        }

        func setAnchors(_ roots: [TLSCertificate], only: Bool) { anchors.append((roots, only)) }
        func verify() -> Int32? {
            verifications += 1
            return status
        }
        func certificateChain() -> [Data] { chain }
    }

    /// A platform that answers challenges, reads every certificate, and imports archives
    /// as credentials named after their passphrase, counting the imports.
    static func applePlatform(imports: Locked<Int>, readable: Bool = true) -> TrustPlatform {
        TrustPlatform(
            answersChallenges: true, readsCertificate: { _ in readable },
            importIdentity: { _, passphrase in
                imports.withLock { $0 += 1 }
                guard passphrase != "wrong" else { return nil }
                return URLCredential(user: passphrase, password: "", persistence: .forSession)
            })
    }

    static func sha256(_ data: Data) -> Data { Data(SHA256.hash(data: data)) }

    static func trust(_ policy: TrustPolicy, imports: Locked<Int> = Locked(0)) throws -> URLSessionTrust {
        try URLSessionTrust(ServerTrust(default: policy), platform: applePlatform(imports: imports))
    }

    // MARK: Server trust

    @Test func aSystemPolicyLeavesTheChallengeToTheSessionWithoutTouchingTheTrust() throws {
        let evaluation = RecordedEvaluation(status: -67818)
        let answer = try Self.trust(.system).answer(evaluation, host: "api.example.com", sha256: Self.sha256)
        #expect(answer == .defaultHandling)
        #expect(evaluation.anchors.isEmpty)
        #expect(evaluation.verifications == 0)
    }

    @Test func onlyRootsAreTheSoleAnchorsAndSystemAndRootsAddToTheSystems() throws {
        let ca = try TestCertificateAuthority()
        let only = RecordedEvaluation()
        #expect(
            try Self.trust(TrustPolicy(roots: .only([ca.root.certificate]))).answer(
                only, host: "localhost", sha256: Self.sha256) == .trusted)
        #expect(only.anchors.map(\.0) == [[ca.root.certificate]])
        #expect(only.anchors.map(\.only) == [true])

        let added = RecordedEvaluation()
        #expect(
            try Self.trust(TrustPolicy(roots: .systemAnd([ca.root.certificate]))).answer(
                added, host: "localhost", sha256: Self.sha256) == .trusted)
        #expect(added.anchors.map(\.0) == [[ca.root.certificate]])
        #expect(added.anchors.map(\.only) == [false])
        #expect(added.verifications == 1)
    }

    @Test(arguments: [
        (Int32(-67818), TLSFailure.Reason.expired), (-67819, .expired), (-67602, .hostNameMismatch),
        (-25318, .untrustedCertificate), (0, .untrustedCertificate),
    ])
    func aFailedEvaluationIsRefusedWithTheReasonOfItsStatus(status: Int32, reason: TLSFailure.Reason) throws {
        let ca = try TestCertificateAuthority()
        let evaluation = RecordedEvaluation(status: status)
        let answer = try Self.trust(TrustPolicy(roots: .only([ca.root.certificate]))).answer(
            evaluation, host: "localhost", sha256: Self.sha256)
        #expect(answer == .refused(TLSFailure(reason)))
    }

    @Test func pinsAreComparedOverTheWholeVerifiedChainAndAMismatchNamesEveryPresentedKey() throws {
        let ca = try TestCertificateAuthority()
        let leaf = try ca.issue()
        let stranger = try TestCertificateAuthority(commonName: "Stranger").root
        let chain = [leaf.certificate.der, ca.root.certificate.der]

        // The root's key pinned, system roots: verified, then pinned by the chain's second certificate.
        let pinnedRoot = RecordedEvaluation(chain: chain)
        #expect(
            try Self.trust(TrustPolicy(pins: [ca.root.pin])).answer(pinnedRoot, host: "localhost", sha256: Self.sha256)
                == .trusted)
        #expect(pinnedRoot.anchors.isEmpty)
        #expect(pinnedRoot.verifications == 1)

        let wrong = RecordedEvaluation(chain: chain)
        #expect(
            try Self.trust(TrustPolicy(pins: [stranger.pin])).answer(wrong, host: "localhost", sha256: Self.sha256)
                == .refused(TLSFailure(.pinMismatch, presentedPins: [leaf.pin, ca.root.pin])))

        // A chain that does not verify is refused for that, before any pin is read.
        let unverified = RecordedEvaluation(status: -67602, chain: chain)
        #expect(
            try Self.trust(TrustPolicy(pins: [leaf.pin])).answer(unverified, host: "localhost", sha256: Self.sha256)
                == .refused(TLSFailure(.hostNameMismatch)))
    }

    @Test func eachHostGetsItsOwnPolicy() throws {
        let ca = try TestCertificateAuthority()
        let trust = try URLSessionTrust(
            ServerTrust(hosts: ["*.internal.example.com": TrustPolicy(roots: .only([ca.root.certificate]))]),
            platform: Self.applePlatform(imports: Locked(0)))
        let inside = RecordedEvaluation()
        let outside = RecordedEvaluation()
        #expect(trust.answer(inside, host: "api.internal.example.com", sha256: Self.sha256) == .trusted)
        #expect(trust.answer(outside, host: "api.example.com", sha256: Self.sha256) == .defaultHandling)
        #expect(inside.anchors.count == 1)
        #expect(outside.anchors.isEmpty)
    }

    // MARK: Client identities

    @Test func aPKCS12IdentityIsImportedOnceWhenTheTransportIsMadeAndPresentedForItsHostsOnly() throws {
        let imports = Locked(0)
        let trust = try URLSessionTrust(
            ServerTrust(hosts: [
                "mtls.example.com": TrustPolicy(clientIdentity: .pkcs12(Data([1, 2, 3]), passphrase: "mtls"))
            ]),
            platform: Self.applePlatform(imports: imports))
        #expect(imports.withLock { $0 } == 1)
        let first = trust.clientCredential(forHost: "mtls.example.com")
        let again = trust.clientCredential(forHost: "MTLS.example.com.")
        #expect(first?.user == "mtls")
        #expect(first === again)
        #expect(trust.clientCredential(forHost: "api.example.com") == nil)
        #expect(imports.withLock { $0 } == 1)
    }

    @Test func theChainPresentedWithAnIdentityIsTheArchivesChainWithoutItsLeaf() {
        #expect(
            URLSessionTrust.intermediates(ofImportedChain: ["leaf", "intermediate", "root"]) == [
                "intermediate", "root",
            ])
        #expect(URLSessionTrust.intermediates(ofImportedChain: ["leaf"]) == [])
        #expect(URLSessionTrust.intermediates(ofImportedChain: [String]()) == [])
    }

    // MARK: What is refused when the transport is made

    @Test func settingsAnApplePlatformCannotApplyAreRefusedNamingTheHost() throws {
        let ca = try TestCertificateAuthority()
        let leaf = try ca.issue(usage: .client)
        let cases: [(ServerTrust, TrustPlatform, TrustConfigurationError.Setting, String?)] = [
            (
                try ServerTrust(hosts: ["a.example.com": TrustPolicy(minimumVersion: .tls13)]),
                Self.applePlatform(imports: Locked(0)), .minimumVersion, "a.example.com"
            ),
            (
                ServerTrust(default: TrustPolicy(roots: .only([ca.root.certificate]))),
                Self.applePlatform(imports: Locked(0), readable: false), .roots, nil
            ),
            (
                ServerTrust(default: TrustPolicy(clientIdentity: leaf.clientIdentity)),
                Self.applePlatform(imports: Locked(0)), .clientIdentity, nil
            ),
            (
                try ServerTrust(hosts: [
                    "b.example.com": TrustPolicy(clientIdentity: .pkcs12(Data([1]), passphrase: "wrong"))
                ]),
                Self.applePlatform(imports: Locked(0)), .clientIdentity, "b.example.com"
            ),
            // FoundationNetworking: any setting but the system's.
            (ServerTrust(default: TrustPolicy(pins: [leaf.pin])), .unsupported, .pins, nil),
        ]
        for (trust, platform, setting, host) in cases {
            let error = #expect(throws: TrustConfigurationError.self) {
                try URLSessionTrust(trust, platform: platform)
            }
            #expect(error?.setting == setting)
            #expect(error?.host == host)
            #expect(error?.transport == "URLSessionTransport")
        }
        #expect(throws: Never.self) { try URLSessionTrust(.system, platform: .unsupported) }
    }
}
