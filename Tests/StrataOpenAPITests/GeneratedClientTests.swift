import Foundation
import HTTPTypes
import OpenAPIRuntime
import Strata
import StrataDemoOpenAPI
import StrataOpenAPI
import Testing

/// A step that answers every call itself with `503` and a text body, as a gateway in
/// maintenance would: a status the demo API's document does not list for most operations.
struct MaintenanceStep: Middleware {
    func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        (HTTPResponse(status: .serviceUnavailable, headerFields: [.contentType: "text/plain"]), MessageBody("down"))
    }
}

/// The demo API's generated client (StrataDemoOpenAPI) over `NetworkerTransport`, against
/// the in-process demo server.
@Suite struct GeneratedClientTests {
    static let ann = Components.Schemas.User(
        name: "Ann", age: 30, _type: ._0,
        photos: [
            .init(id: "1-1", ref: "https://img.example/ann/1.jpg"),
            .init(id: "1-2", ref: "https://img.example/ann/2.jpg"),
        ])

    @Test func typedResponsesForDocumentedStatuses() async throws {
        try await withDemoServer { server, transport in
            let recorder = RecordingStep()
            let client = Client(
                serverURL: server.baseURL,
                transport: NetworkerTransport(Networker(transport: transport, middleware: [recorder])))

            let user = try await client.getUser(path: .init(id: 1))
            #expect(try user.ok.body.json == Self.ann)

            let missing = try await client.getUser(path: .init(id: 99))
            #expect(try missing.notFound.body.json.error == "no user with id 99")

            let page = try await client.searchUsers(query: .init(search: "an", page: 1))
            #expect(try page.ok.body.json.users.map(\.name) == ["Ann", "Dan"])

            #expect(
                recorder.calls.map(\.operationID) == ["getUser", "getUser", "searchUsers"])
            #expect(recorder.calls.map(\.path) == ["/users/1", "/users/99", "/users?search=an&page=1"])
        }
    }

    @Test func anUndocumentedStatusIsUndocumented() async throws {
        try await withDemoServer { server, transport in
            let client = Client(
                serverURL: server.baseURL,
                transport: NetworkerTransport(Networker(transport: transport, middleware: [MaintenanceStep()])))
            let output = try await client.getUser(path: .init(id: 1))
            guard case .undocumented(let statusCode, let payload) = output else {
                Issue.record("expected an undocumented response, got \(output)")
                return
            }
            #expect(statusCode == 503)
            #expect(try await String(collecting: try #require(payload.body), upTo: 1024) == "down")
        }
    }

    @Test func aRetryResendsAMultipleIterationBodyButNotASingleOne() async throws {
        try await withDemoServer { server, transport in
            let networker = Networker(
                transport: transport,
                middleware: [RetryMiddleware(policy: RetryPolicy(maxAttempts: 3, maxBackoff: .milliseconds(20)))])
            let client = Client(serverURL: server.baseURL, transport: NetworkerTransport(networker))
            let payload = Array(repeating: UInt8(ascii: "y"), count: 4096)

            let retried = try await client.putFlaky(path: .init(name: "multiple"), body: .binary(HTTPBody(payload)))
            #expect(try retried.ok.body.json == Components.Schemas.FlakyUpload(attempt: 3, bytes: 4096))

            let (stream, continuation) = AsyncThrowingStream<HTTPBody.ByteChunk, any Error>.makeStream()
            continuation.yield(payload[...])
            continuation.finish()
            let refused = try await client.putFlaky(
                path: .init(name: "single"), body: .binary(HTTPBody(stream, length: .known(4096))))
            let unavailable = try refused.serviceUnavailable
            #expect(try unavailable.body.json.error == "temporarily unavailable (call 1 of 2 that fail)")
            #expect(unavailable.headers.retryAfter == ._0)

            #expect(try await client.getFlakyCalls(path: .init(name: "multiple")).ok.body.json.calls == 3)
            #expect(try await client.getFlakyCalls(path: .init(name: "single")).ok.body.json.calls == 1)
        }
    }

    @Test func aStrataErrorIsTheClientErrorsUnderlyingError() async throws {
        var configuration = Networker.Configuration()
        configuration.timeout = .seconds(5)
        let client = Client(
            serverURL: try #require(URL(string: "http://127.0.0.1:9")),
            transport: NetworkerTransport(Networker(transport: FailingTransport(), configuration: configuration)))
        let error = await #expect(throws: ClientError.self) {
            try await client.getUser(path: .init(id: 1))
        }
        #expect(error?.operationID == "getUser")
        let strataError = try #require(error?.underlyingError as? StrataError)
        #expect(strataError.kind == .transport)
        #expect(strataError.transportError?.kind == .connectionRefused)
        #expect(strataError.phase == .awaitingHead)
        #expect(strataError.request?.path == "/users/1")
    }

    @Test func anEventStreamArrivesAsItsEvents() async throws {
        try await withDemoServer { server, transport in
            let client = Client(
                serverURL: server.baseURL,
                transport: NetworkerTransport(
                    Networker(transport: transport), idleTimeouts: ["streamChat": .seconds(5)]))
            let stream = try await client.streamChat().ok.body.textEventStream
            #expect(stream.iterationBehavior == .single)
            var tokens: [String] = []
            var done = false
            for try await event in stream.asDecodedServerSentEvents() {
                guard let data = event.data, data != "[DONE]" else {
                    done = event.data == "[DONE]"
                    continue
                }
                let chunk = try JSONDecoder().decode(Components.Schemas.ChatChunk.self, from: Data(data.utf8))
                tokens += chunk.choices.map(\.delta.content)
            }
            #expect(done)
            #expect(tokens.joined() == "Strata streams every token the moment it arrives.")
            #expect(tokens.count == 8)
        }
    }

    /// Strata's authentication step under a generated client: the saved token is refused
    /// with `401`, the step logs in again (through the generated client) once, and the
    /// request goes again with the new token.
    @Test func aRefusedTokenIsRenewedOnceAndTheCallSentAgain() async throws {
        try await withDemoServer { server, transport in
            let plain = Client(
                serverURL: server.baseURL, transport: NetworkerTransport(Networker(transport: transport)))
            let renewals = Locked<[String]>([])
            let auth = AuthenticationMiddleware(
                BearerTokenProvider(BearerToken("demo-saved")) { rejected in
                    renewals.withLock { $0.append(rejected.value) }
                    let login = try await plain.logIn(
                        body: .urlEncodedForm(.init(login: "ann", password: "p@ss word")))
                    return BearerToken(try login.ok.body.json.token)
                })
            let recorder = RecordingStep()
            let client = Client(
                serverURL: server.baseURL,
                transport: NetworkerTransport(Networker(transport: transport, middleware: [auth, recorder])))

            let first = try await client.getMe().ok.body.json
            let second = try await client.getMe().ok.body.json
            #expect(first == Self.ann)
            #expect(second == Self.ann)
            #expect(renewals.withLock { $0 } == ["demo-saved"])
            #expect(recorder.calls.map(\.operationID) == ["getMe", "getMe", "getMe"])
        }
    }
}
