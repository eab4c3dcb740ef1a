import Foundation
import HTTPTypes
import Logging
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

@Suite struct BasicAuthenticationTests {
    /// RFC 7617's own examples (§2 and §2.1), and a decomposed `é` sent as the composed one.
    @Test(arguments: [
        ("Aladdin", "open sesame", "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="),
        ("test", "123\u{A3}", "Basic dGVzdDoxMjPCow=="),
        ("jos\u{E9}", "", "Basic am9zw6k6"),
        ("jose\u{301}", "", "Basic am9zw6k6"),
    ])
    func theFieldIsBase64OfUTF8InNormalizationFormC(user: String, password: String, expected: String) throws {
        #expect(try BasicCredentials(user: user, password: password).authorization == expected)
    }

    @Test func aColonInTheUserOrAControlCharacterIsRefused() throws {
        #expect(throws: BasicCredentialsError.colonInUser) { try BasicCredentials(user: "a:b", password: "c") }
        #expect(throws: BasicCredentialsError.controlCharacter) { try BasicCredentials(user: "a\nb", password: "c") }
        #expect(throws: BasicCredentialsError.controlCharacter) { try BasicCredentials(user: "a", password: "c\u{7F}") }
        // A colon in the password is the RFC's own case: the user ends at the first one.
        #expect(try BasicCredentials(user: "a", password: "b:c").authorization == "Basic YTpiOmM=")
    }

    @Test func theStepAndTheModifierSetTheFieldAndTheLogRedactsIt() async throws {
        let log = EventLog()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(log: log) }
        let seen = Locked<[String]>([])
        let transport = ClosureTransport { request, _, _ in
            seen.withLock { $0.append(request.headerFields[.authorization] ?? "none") }
            return (HTTPResponse(status: .ok), MessageBody("ok"))
        }
        let networker = Networker(
            transport: transport,
            middleware: [
                HeadersMiddleware.basicAuthentication(user: "Aladdin", password: "open sesame"),
                LoggingMiddleware(logger: logger),
            ])
        let endpoint = Endpoint<String>(RequestDescription(route: RegistrationRoute.auth))
        #expect(try await networker.send(endpoint) == "ok")
        let plain = Networker(transport: transport, middleware: [LoggingMiddleware(logger: logger)])
        #expect(try await plain.send(endpoint.basicAuthentication(user: "test", password: "123\u{A3}")) == "ok")
        #expect(seen.withLock { $0 } == ["Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==", "Basic dGVzdDoxMjPCow=="])
        let requestLines = log.all.filter { $0.hasPrefix("info → GET") }
        #expect(
            requestLines == [
                "info → GET http://example.com/user/auth strata.attempt=1 strata.headers=[authorization: <redacted>]",
                "info → GET http://example.com/user/auth strata.attempt=1 strata.headers=[authorization: <redacted>]",
            ])
        #expect(!log.all.joined().contains("QWxhZGRpbjpvcGVuIHNlc2FtZQ") && !log.all.joined().contains("dGVzdDox"))
    }

    @Test func credentialsThatCannotBeSentFailTheCallTyped() async throws {
        let networker = Networker(transport: ClosureTransport.json("{}"))
        let endpoint = Endpoint<JSON>(RequestDescription(route: RegistrationRoute.auth))
        let modifier = await #expect(throws: StrataError.self) {
            try await networker.send(endpoint.basicAuthentication(user: "a:b", password: "c"))
        }
        #expect(modifier?.kind == .encoding)
        #expect(modifier?.underlying as? BasicCredentialsError == .colonInUser)
        let stepped = Networker(
            transport: ClosureTransport.json("{}"),
            middleware: [HeadersMiddleware.basicAuthentication(user: "a", password: "\u{0}")])
        let step = await #expect(throws: StrataError.self) { try await stepped.send(endpoint) }
        #expect(step?.kind == .middleware)
        #expect(step?.middleware == "HeadersMiddleware")
        #expect(step?.underlying as? BasicCredentialsError == .controlCharacter)
    }

    @Test func theDescriptionHidesThePassword() throws {
        let credentials = try BasicCredentials(user: "ada", password: "s3cret")
        #expect("\(credentials)" == #"BasicCredentials(user: "ada", password: <redacted>)"#)
    }
}
