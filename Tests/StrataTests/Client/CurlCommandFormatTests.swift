import Foundation
import HTTPTypes
import Logging
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

@Suite struct CurlCommandFormatTests {
    static func request(_ method: HTTPRequest.Method, _ fields: HTTPFields = [:]) -> HTTPRequest {
        HTTPRequest(
            method: method, scheme: "https", authority: "api.example.com", path: "/users?notify=1", headerFields: fields
        )
    }

    @Test func aJSONPostWithCredentialsRedacted() {
        let fields: HTTPFields = [
            .contentType: "application/json", .authorization: "Bearer s3cret", .cookie: "sid=1",
            HTTPField.Name("X-Api-Key")!: "k",
        ]
        let command = Self.request(.post, fields).curlCommand(
            body: MessageBody(#"{"name":"O'Brien"}"#), redacting: [HTTPField.Name("X-Api-Key")!])
        #expect(
            command == """
                curl --request POST 'https://api.example.com/users?notify=1' \\
                  --header 'Content-Type: application/json' \\
                  --header 'Authorization: <redacted>' \\
                  --header 'Cookie: <redacted>' \\
                  --header 'X-Api-Key: <redacted>' \\
                  --data-binary '{"name":"O'\\''Brien"}'
                """)
        let revealed = Self.request(.post, fields).curlCommand(revealingCredentials: true)
        #expect(
            revealed.contains("--header 'Authorization: Bearer s3cret'")
                && revealed.contains("--header 'Cookie: sid=1'"))
        #expect(revealed.contains("--header 'X-Api-Key: k'"))
    }

    @Test func getHeadAndBodiesNotShown() {
        #expect(Self.request(.get).curlCommand() == "curl 'https://api.example.com/users?notify=1'")
        #expect(
            Self.request(.get, [HTTPField.Name("X-Empty")!: ""]).curlCommand()
                == "curl 'https://api.example.com/users?notify=1' \\\n  --header 'X-Empty;'")
        #expect(Self.request(.head).curlCommand() == "curl --head 'https://api.example.com/users?notify=1'")
        #expect(Self.request(.delete).curlCommand() == "curl --request DELETE 'https://api.example.com/users?notify=1'")
        // A text body without a Content-Type: curl must not add one.
        #expect(
            Self.request(.put).curlCommand(body: MessageBody("a\tb\nc"))
                == "curl --request PUT 'https://api.example.com/users?notify=1' \\\n  --header 'Content-Type:' \\\n  --data-binary 'a\tb\nc'"
        )
        #expect(
            Self.request(.post).curlCommand(body: MessageBody(Data([0x00, 0xFF, 0x10])))
                == "curl --request POST 'https://api.example.com/users?notify=1' \\\n  # body not shown: binary, 3 bytes"
        )
        let streamed = MessageBody(length: 42, streaming: AsyncStream<Data> { $0.finish() })
        #expect(
            Self.request(.post).curlCommand(body: streamed)
                == "curl --request POST 'https://api.example.com/users?notify=1' \\\n  # body not shown: streamed, 42 bytes"
        )
        #expect(
            Self.request(.post).curlCommand(body: MessageBody(Data()))
                == "curl --request POST 'https://api.example.com/users?notify=1'")
    }

    @Test func anErrorGivesItsRequestAndTheStepLogsEachAttemptAtDebug() async throws {
        let log = EventLog()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(log: log) }
        let networker = Networker(
            transport: ClosureTransport.json("{}", status: .notFound),
            middleware: [LoggingMiddleware(logger: logger, logsCurlCommands: true)])
        let endpoint = Endpoint<JSON>(
            RequestDescription(route: RegistrationRoute.auth, headers: [.authorization: "Bearer t"]))
        let error = await #expect(throws: StrataError.self) { try await networker.send(endpoint) }
        #expect(
            error?.curlCommand() == "curl 'http://example.com/user/auth' \\\n  --header 'Authorization: <redacted>'")
        #expect(
            log.all.contains("debug curl 'http://example.com/user/auth' \\\n  --header 'Authorization: <redacted>' "))
        #expect(StrataError(.cancelled).curlCommand() == nil)
    }
}
