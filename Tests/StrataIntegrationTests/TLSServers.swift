import Foundation
import Hummingbird
import Logging
import NIOSSL
import Strata
import StrataServerLifecycle
import StrataTestCertificates

/// What the trust tests' servers answer to `GET /hello`.
let helloOverTLS = "hello over TLS"

/// HTTPS servers on 127.0.0.1, one per case of the trust matrix, with certificates made
/// as the tests run: each answers `GET /hello` with `hello over TLS`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
struct TLSServers {
    /// The CA of the good, expired and wrong-host leaves.
    let authority: TestCertificateAuthority
    /// A CA nobody is told to trust.
    let otherAuthority: TestCertificateAuthority
    /// The CA the mutual-TLS server takes client certificates from.
    let clientAuthority: TestCertificateAuthority
    /// The good leaf (for `localhost` and `127.0.0.1`).
    let leaf: TestIdentity
    /// A client certificate from `clientAuthority`.
    let client: TestIdentity

    let good: InProcessServer
    let expired: InProcessServer
    let wrongHost: InProcessServer
    let selfSigned: InProcessServer
    let fromOtherAuthority: InProcessServer
    let mutual: InProcessServer
    let tls12Only: InProcessServer

    /// What every server answers.
    static var body: String { helloOverTLS }

    static func start() async throws -> TLSServers {
        let authority = try TestCertificateAuthority(commonName: "Strata Test CA")
        let otherAuthority = try TestCertificateAuthority(commonName: "Other CA")
        let clientAuthority = try TestCertificateAuthority(commonName: "Client CA")
        let leaf = try authority.issue()
        let now = Date()
        let expiredLeaf = try authority.issue(validity: (now - 7 * 86_400)...(now - 86_400))
        let wrongHostLeaf = try authority.issue(dnsNames: ["elsewhere.example"], ipAddresses: [])
        let client = try clientAuthority.issue(dnsNames: ["client"], ipAddresses: [], usage: .client)
        func serve(_ configuration: TLSConfiguration) async throws -> InProcessServer {
            let router = Router()
            router.get("hello") { _, _ in body }
            var logger = Logger(label: "tls-server")
            logger.logLevel = .critical
            return try await InProcessServer.start(
                router: router, serverName: "tls", logger: logger, tlsConfiguration: configuration)
        }
        return TLSServers(
            authority: authority, otherAuthority: otherAuthority, clientAuthority: clientAuthority,
            leaf: leaf, client: client,
            good: try await serve(leaf.serverTLSConfiguration()),
            expired: try await serve(expiredLeaf.serverTLSConfiguration()),
            wrongHost: try await serve(wrongHostLeaf.serverTLSConfiguration()),
            selfSigned: try await serve(TestCertificateAuthority.selfSigned().serverTLSConfiguration()),
            fromOtherAuthority: try await serve(otherAuthority.issue().serverTLSConfiguration()),
            mutual: try await serve(leaf.serverTLSConfiguration(requiringClientCertificatesFrom: clientAuthority)),
            tls12Only: try await serve(leaf.serverTLSConfiguration(maximumVersion: .tls12)))
    }

    func shutdown() async {
        for server in [good, expired, wrongHost, selfSigned, fromOtherAuthority, mutual, tls12Only] {
            await server.shutdown()
        }
    }

    /// `GET https://host:port/hello`.
    static func hello(_ server: InProcessServer, host: String = "localhost") throws -> Endpoint<String> {
        Endpoint(RequestDescription(route: try URL(string: "https://\(host):\(server.port)")! + "/hello"))
    }
}
