import Foundation
import HTTPTypes
import Logging
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

@Suite struct NetworkerTests {
    let userEndpoint = Endpoint(RequestDescription(route: RegistrationRoute.user("7")), model: User.self)

    @Test func sendParsesThroughBothModelLayers() async throws {
        let networker = Networker(transport: ClosureTransport.json(ModelLayerTests.userJSON))
        let user = try await networker.send(userEndpoint)
        #expect(user.name == "Ann")
        #expect(user.photos.count == 2)
    }

    @Test func responseEnvelopeCarriesHeadBodyAndRequest() async throws {
        let networker = Networker(transport: ClosureTransport.json(#"{"a":1}"#, status: .created))
        let response = try await networker.response(
            for: Endpoint<JSON>(
                RequestDescription(route: RegistrationRoute.register, method: .post, parameters: ["x": 1] as JSON)))
        #expect(response.value == ["a": 1])
        #expect(response.head.status == .created)
        #expect(response.body == Data(#"{"a":1}"#.utf8))
        #expect(response.request.method == .post)
        #expect(response.request.url?.absoluteString == "http://example.com/user/register")
        #expect(response.duration > .zero)
    }

    @Test func middlewareRunsInArrayOrderAndResponsesInReverse() async throws {
        let log = EventLog()
        let transport = ClosureTransport { request, _, _ in
            log.append("transport " + request.headerFields[values: .init("X-Trail")!].joined(separator: ","))
            return (HTTPResponse(status: .ok), nil)
        }
        let networker = Networker(
            transport: transport,
            middleware: [
                TaggingMiddleware(name: "a", log: log), TaggingMiddleware(name: "b", log: log),
            ])
        try await networker.send(Endpoint<Void>(RequestDescription(route: RegistrationRoute.auth)))
        #expect(log.all == ["→a", "→b", "transport a,b", "←b", "←a"])
    }

    @Test func unacceptableStatusCarriesStatusAndSnippet() async {
        let networker = Networker(transport: ClosureTransport.json(#"{"error":"nope"}"#, status: .notFound))
        let error = await #expect(throws: StrataError.self) { try await networker.send(userEndpoint) }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.status?.code == 404)
        #expect(error?.bodySnippet == #"{"error":"nope"}"#)
        #expect(
            error?.description
                == #"GET http://example.com/user/7 → 404 Not Found: unacceptable status 404; body: {"error":"nope"}"#)
    }

    @Test func decodingAndMappingFailuresAreDifferentStages() async {
        let notJSON = Networker(transport: ClosureTransport.json("<html>"))
        let decoding = await #expect(throws: StrataError.self) { try await notJSON.send(userEndpoint) }
        #expect(decoding?.kind == .decoding)
        #expect(decoding?.mappingError?.typeName.hasSuffix("UserEntry") == true)
        #expect(decoding?.underlying is DecodingError)

        struct Strict: DTODecodable, Sendable {
            static func from(dto: PhotoEntry) throws -> Strict {
                throw MappingError(type: Strict.self, description: "ref must be https")
            }
        }
        let photo = Networker(transport: ClosureTransport.json(#"{"id":"1","ref":"http://x"}"#))
        let endpoint = Endpoint(RequestDescription(route: RegistrationRoute.user("1")), model: Strict.self)
        let mappingError = await #expect(throws: StrataError.self) { try await photo.send(endpoint) }
        #expect(mappingError?.kind == .mapping)
        #expect(mappingError?.mappingError?.reason == "ref must be https")
    }

    @Test func invalidURLAndEncodingAreTheirOwnStages() async {
        struct NoURL: URLRouteProvider { func url() throws -> URL { try URL(string: "") + "/x" } }
        let networker = Networker(transport: ClosureTransport.json("{}"))
        let urlError = await #expect(throws: StrataError.self) {
            try await networker.send(Endpoint<JSON>(RequestDescription(route: NoURL())))
        }
        #expect(urlError?.kind == .invalidURL)
        #expect(urlError?.underlying as? URLRouteError == .missingBaseURL(path: "/x"))

        let encoding = await #expect(throws: StrataError.self) {
            try await networker.send(
                Endpoint<JSON>(
                    RequestDescription(
                        route: RegistrationRoute.auth, method: .post,
                        parameters: [1] as JSON, encoding: .formURL)))
        }
        #expect(encoding?.kind == .encoding)
        #expect(encoding?.underlying is ParameterEncodingError)
    }

    @Test func transportErrorsKeepTheirKind() async {
        let networker = Networker(transport: ClosureTransport { _, _, _ in throw TransportError(.connectionRefused) })
        let error = await #expect(throws: StrataError.self) { try await networker.send(userEndpoint) }
        #expect(error?.kind == .transport)
        #expect(error?.transportError?.kind == .connectionRefused)
        #expect(error?.phase == .awaitingHead)
        #expect(error?.request?.path == "/user/7")
    }

    @Test func bodyLargerThanTheLimit() async {
        var configuration = Networker.Configuration()
        configuration.maxResponseBodySize = 8
        let networker = Networker(
            transport: ClosureTransport.json(#"{"a":"0123456789"}"#), configuration: configuration)
        let error = await #expect(throws: StrataError.self) {
            try await networker.send(Endpoint<JSON>(RequestDescription(route: RegistrationRoute.auth)))
        }
        #expect(error?.kind == .bodyTooLarge)
        #expect(error?.underlying as? MessageBodyError == .tooLarge(limit: 8))
    }

    @Test func deadlineComesFromEndpointOrConfiguration() async throws {
        let seen = EventLog()
        let transport = ClosureTransport { _, _, deadline in
            if let deadline {
                let remaining = ContinuousClock.now.duration(to: deadline)
                seen.append(remaining > .seconds(4) && remaining <= .seconds(5) ? "about 5s" : "other \(remaining)")
            } else {
                seen.append("none")
            }
            return (HTTPResponse(status: .noContent), nil)
        }
        var endpoint = Endpoint<Void>(RequestDescription(route: RegistrationRoute.auth))
        endpoint.timeout = .seconds(5)
        try await Networker(transport: transport).send(endpoint)
        var configuration = Networker.Configuration()
        configuration.timeout = nil
        try await Networker(transport: transport, configuration: configuration).send(
            Endpoint<Void>(RequestDescription(route: RegistrationRoute.auth)))
        #expect(seen.all == ["about 5s", "none"])
    }

    @Test func endpointValidationOverridesTheClient() async throws {
        var endpoint = Endpoint<String>(RequestDescription(route: RegistrationRoute.auth))
        endpoint.validation = ResponseValidation(statusCodes: [200, 404])
        let networker = Networker(transport: ClosureTransport.json("missing", status: .notFound))
        #expect(try await networker.send(endpoint) == "missing")
    }

    @Test func contentTypeValidation() async throws {
        var configuration = Networker.Configuration()
        configuration.validation = ResponseValidation(contentTypes: ["application/*"])
        let html = ClosureTransport { _, _, _ in
            (HTTPResponse(status: .ok, headerFields: [.contentType: "text/html; charset=utf-8"]), MessageBody("<p>"))
        }
        let error = await #expect(throws: StrataError.self) {
            try await Networker(transport: html, configuration: configuration).send(
                Endpoint<String>(RequestDescription(route: RegistrationRoute.auth)))
        }
        #expect(error?.kind == .unacceptableContentType)
        #expect(error?.response?.headerFields[.contentType] == "text/html; charset=utf-8")
        let empty = ClosureTransport { _, _, _ in (HTTPResponse(status: .noContent), nil) }
        try await Networker(transport: empty, configuration: configuration).send(
            Endpoint<Void>(RequestDescription(route: RegistrationRoute.auth)))
        let json = ClosureTransport.json("{}")
        #expect(
            try await Networker(transport: json, configuration: configuration).send(
                Endpoint<JSON>(RequestDescription(route: RegistrationRoute.auth))) == [:])
    }

    @Test func cancellationIsItsOwnKind() async {
        let networker = Networker(
            transport: ClosureTransport { _, _, _ in
                try await Task.sleep(for: .seconds(30))
                return (HTTPResponse(status: .ok), nil)
            })
        let task = Task { try await networker.send(Endpoint<Void>(RequestDescription(route: RegistrationRoute.auth))) }
        try? await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let result = await task.result
        #expect((try? result.get()) == nil)
        if case .failure(let error) = result {
            #expect((error as? StrataError)?.isCancelled == true)
        }
    }

    @Test func loadDeliversAResultAndCanBeCancelled() async throws {
        let networker = Networker(transport: ClosureTransport.json(ModelLayerTests.userJSON))
        let user: User = try await withCheckedThrowingContinuation { continuation in
            networker.load(userEndpoint) { result in continuation.resume(with: result) }
        }
        #expect(user.name == "Ann")

        let slow = Networker(
            transport: ClosureTransport { _, _, _ in
                try await Task.sleep(for: .seconds(30))
                return (HTTPResponse(status: .ok), nil)
            })
        let result: Result<Void, StrataError> = await withCheckedContinuation { continuation in
            let handle = slow.load(Endpoint<Void>(RequestDescription(route: RegistrationRoute.auth))) {
                continuation.resume(returning: $0)
            }
            handle.cancel()
            #expect(handle.isCancelled)
        }
        guard case .failure(let error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.isCancelled)
    }
}

@Suite struct MiddlewareTests {
    @Test func staticHeadersKeepRequestValuesAndComputedHeadersReplace() async throws {
        let log = EventLog()
        let transport = ClosureTransport { request, _, _ in
            log.append(
                request.headerFields.map { "\($0.name.canonicalName)=\($0.value)" }.sorted().joined(separator: " "))
            return (HTTPResponse(status: .noContent), nil)
        }
        let networker = Networker(
            transport: transport,
            middleware: [
                HeadersMiddleware([.userAgent: "Strata-Tests", .accept: "application/json"]),
                HeadersMiddleware.bearerToken {
                    await Task.yield()
                    return "t0k3n"
                },
            ])
        var headers = HTTPFields()
        headers[.accept] = "text/plain"
        headers[.authorization] = "Basic old"
        try await networker.send(Endpoint<Void>(RequestDescription(route: RegistrationRoute.auth, headers: headers)))
        #expect(log.all == ["accept=text/plain authorization=Bearer t0k3n user-agent=Strata-Tests"])
    }

    @Test func failingHeaderProviderIsAMiddlewareError() async {
        struct NoToken: Error {}
        let networker = Networker(
            transport: ClosureTransport.json("{}"),
            middleware: [
                HeadersMiddleware.bearerToken { throw NoToken() }
            ])
        let error = await #expect(throws: StrataError.self) {
            try await networker.send(Endpoint<JSON>(RequestDescription(route: RegistrationRoute.auth)))
        }
        #expect(error?.kind == .middleware)
        #expect(error?.middleware == "HeadersMiddleware")
        #expect(error?.underlying is NoToken)
    }

    @Test func loggingRedactsCredentials() async throws {
        let log = EventLog()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(log: log) }
        let transport = ClosureTransport { _, _, _ in
            (
                HTTPResponse(status: .ok, headerFields: [.setCookie: "session=abc", .contentType: "text/plain"]),
                MessageBody("ok")
            )
        }
        let apiKey = HTTPField.Name("X-Api-Key")!
        let networker = Networker(
            transport: transport, middleware: [LoggingMiddleware(logger: logger, redacting: [apiKey])])
        var headers = HTTPFields()
        headers[.authorization] = "Bearer secret"
        headers[.cookie] = "a=b"
        headers[apiKey] = "k3y"
        headers[.accept] = "text/plain"
        _ = try await networker.send(
            Endpoint<String>(RequestDescription(route: RegistrationRoute.auth, headers: headers)))
        let lines = log.all
        #expect(lines.count == 3)
        #expect(
            lines.first
                == "info → GET http://example.com/user/auth strata.attempt=1 strata.headers=[accept: text/plain, authorization: <redacted>, cookie: <redacted>, x-api-key: <redacted>]"
        )
        #expect(lines[1].hasPrefix("info ← 200 GET http://example.com/user/auth (") == true)
        #expect(lines[2].hasPrefix("debug ✓ 200 GET http://example.com/user/auth: 2 bytes in ") == true)
        #expect(
            lines[1].hasSuffix(
                "strata.body_bytes=2 strata.headers=[content-type: text/plain, set-cookie: <redacted>]") == true)
        #expect(
            !lines.joined().contains("secret") && !lines.joined().contains("k3y") && !lines.joined().contains("abc"))
    }

    @Test func validationMiddlewareFailsInsideTheChain() async {
        let log = EventLog()
        let transport = ClosureTransport.json(#"{"e":1}"#, status: .serviceUnavailable)
        let networker = Networker(
            transport: transport,
            middleware: [
                TaggingMiddleware(name: "outer", log: log), ValidationMiddleware(),
            ])
        let error = await #expect(throws: StrataError.self) {
            try await networker.send(Endpoint<JSON>(RequestDescription(route: RegistrationRoute.auth)))
        }
        #expect(error?.status?.code == 503)
        #expect(error?.bodySnippet == #"{"e":1}"#)
        #expect(log.all == ["→outer"])
    }
}
