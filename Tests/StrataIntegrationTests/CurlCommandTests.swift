import Foundation
import HTTPTypes
import Strata
import StrataTestServer
import StrataTestSupport
import Testing

/// A request's `curl` command, run with the real `curl` against the in-process server,
/// makes the request the server saw from Strata: the same method, path, query, body bytes
/// and header fields (but those a transport or `curl` adds where the request has none).
@Suite("Requests as curl commands")
struct CurlCommandTests {
    /// The fields each client adds of its own accord, left out of the comparison.
    static let addedByTheClient: Set<String> = [
        "host", "user-agent", "accept", "accept-encoding", "accept-language", "content-length", "connection",
        "transfer-encoding",
    ]

    /// Keeps the `curl` command of the request the transport gets.
    struct CommandRecorder: Middleware {
        let commands = Locked<[String]>([])

        func intercept(
            _ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext, next: MiddlewareNext
        ) async throws -> (HTTPResponse, MessageBody?) {
            commands.withLock { $0.append(request.curlCommand(body: body, revealingCredentials: true)) }
            return try await next(request, body, context)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(arguments: TransportKind.allCases)
    func curlMakesTheRequestStrataMade(_ kind: TransportKind) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                let recorder = CommandRecorder()
                let networker = Networker(transport: transport, middleware: [recorder])
                let base = server.baseURL.absoluteString
                let endpoints = [
                    Endpoint(
                        RequestDescription(
                            route: base + "/echo/it's%20here?q=a%20b&q=%C3%A9&empty=",
                            method: .post,
                            parameters: ["name": "O'Brien \"quoted\" $HOME `cmd`", "lines": "a\nb\tc"] as JSON,
                            headers: ["X-Quote": "it's", "X-Dollar": "$PATH"]),
                        decoding: EchoReply.self
                    ).basicAuthentication(user: "ada", password: "s3cr'et"),
                    Endpoint(
                        RequestDescription(route: base + "/echo/plain?x=1", headers: ["Cookie": "sid=1; theme=dark"]),
                        decoding: EchoReply.self),
                    Endpoint(
                        RequestDescription(
                            route: base + "/echo/put", method: .put, headers: ["X-Empty": ""],
                            body: .data(Data("plain text ✓".utf8), contentType: nil)),
                        decoding: EchoReply.self),
                    Endpoint(RequestDescription(route: base + "/echo/gone", method: .delete), decoding: EchoReply.self),
                ]
                var fromStrata: [EchoReply] = []
                for endpoint in endpoints { fromStrata.append(try await networker.send(endpoint)) }
                let commands = recorder.commands.withLock { $0 }
                #expect(commands.count == endpoints.count)
                for (command, strata) in zip(commands, fromStrata) {
                    let fromCurl = try JSONDecoder().decode(EchoReply.self, from: try await Self.run(command))
                    #expect(fromCurl.method == strata.method, "\(command)")
                    #expect(fromCurl.path == strata.path, "\(command)")
                    #expect(fromCurl.query == strata.query, "\(command)")
                    #expect(fromCurl.body == strata.body, "\(command)")
                    #expect(Self.ownFields(fromCurl) == Self.ownFields(strata), "\(command)")
                }
                #expect(Self.ownFields(fromStrata[0])["authorization"] == "Basic YWRhOnMzY3InZXQ=")
                #expect(fromStrata[1].headers["cookie"] == "sid=1; theme=dark")
            }
        }
    }

    /// The fields the request carried, without the ones a client adds.
    static func ownFields(_ reply: EchoReply) -> [String: String] {
        reply.headers.filter { !addedByTheClient.contains($0.key) }
    }

    /// Runs `command` with `/bin/sh` (no configuration file; stopped after 30 seconds) and
    /// returns what it printed. The wait does not block a thread: the server answers on
    /// the same pool.
    static func run(_ command: String) async throws -> Data {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("strata-curl-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let quiet = command.replacingOccurrences(
            of: "curl ", with: "curl -q --silent --show-error ", options: .anchored)
        process.arguments = ["-c", quiet]
        process.standardOutput = try FileHandle(forWritingTo: output)
        let timedOut = try await ChildProcess.run(process, timeout: .seconds(30))
        #expect(!timedOut && process.terminationStatus == 0, "\(command)")
        return try Data(contentsOf: output)
    }
}
