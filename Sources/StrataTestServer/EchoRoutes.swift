import Foundation
import Hummingbird
import NIOCore
import StrataServerLifecycle

/// The routes every ``TestServer`` serves.
///
/// - `/echo/**` (any method): replies `200` with a JSON ``EchoReply`` describing the
///   request exactly as the server received it (the body as Base64).
/// - `GET /status/{code}`: that status, with body `status {code}` (none for 204/304).
/// - `GET /json/user/{id}`: a user with two photos (the layered models). `HEAD` too.
/// - `GET /photos/{id}`: a photo (the Endpoint + Networker + Result pattern).
/// - `GET /text`: an HTML page, `text/html`.
/// - `GET /bytes/{n}`: `n` bytes (`0, 1, 2, … 255, 0, …`), `application/octet-stream`.
/// - `GET /stream/{chunks}`: that many 1 KiB chunks, written one at a time, no length.
/// - `GET /hang`: answers after 60 seconds (for deadlines and cancellation), or fails at
///   once when the server shuts down.
/// - `GET /stall-body[?status={code}]`: sends the head (200, or that status) and a first
///   chunk, then stalls for 60 seconds or until the server shuts down.
/// - `GET /redirect`: `302` to `/json/user/1`.
/// - `/redirect-to?status={code}&location={URL}` (`GET`, `HEAD`, `POST`, `PUT`, `DELETE`):
///   that status (302 by default) with that `Location` and the body `moved`.
/// - `GET /loop`: `302` to itself.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public enum EchoRoutes {
    /// Adds the routes to `router`.
    public static func register(on router: Router<BasicRequestContext>) {
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete, .head, .options] {
            router.on("echo/**", method: method) { request, _ in try await echo(request) }
        }
        router.get("status/:code") { _, context in
            let code = context.parameters.get("code", as: Int.self) ?? 400
            let status = HTTPResponse.Status(code: code)
            if code == 204 || code == 304 { return Response(status: status) }
            return text("status \(code)", status: status, type: "text/plain; charset=utf-8")
        }
        router.get("json/user/:id") { _, context in
            try json(Fixtures.user(id: context.parameters.get("id") ?? "0"))
        }
        router.head("json/user/:id") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"])
        }
        router.get("photos/:id") { _, context in
            try json(Fixtures.photo(id: context.parameters.get("id", as: Int.self) ?? 0))
        }
        router.get("text") { _, _ in
            text("<html><body>not json</body></html>", status: .ok, type: "text/html; charset=utf-8")
        }
        router.get("bytes/:n") { _, context in
            let count = max(0, context.parameters.get("n", as: Int.self) ?? 0)
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0) }
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        router.get("stream/:chunks") { _, context in
            let chunks = max(0, context.parameters.get("chunks", as: Int.self) ?? 0)
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: .init { writer in
                    for index in 0..<chunks {
                        try await writer.write(ByteBuffer(repeating: UInt8(truncatingIfNeeded: index), count: 1024))
                    }
                    try await writer.finish(nil)
                })
        }
        router.get("hang") { _, _ in
            try await InProcessServer.sleepUnlessShuttingDown(for: .seconds(60))
            return text("late", status: .ok, type: "text/plain")
        }
        router.get("stall-body") { request, _ in
            let code = request.uri.queryParameters.get("status").flatMap { Int(String($0)) } ?? 200
            return Response(
                status: .init(code: code), headers: [.contentType: "application/octet-stream"],
                body: .init { writer in
                    try await writer.write(ByteBuffer(string: "first"))
                    try await InProcessServer.sleepUnlessShuttingDown(for: .seconds(60))
                    try await writer.finish(nil)
                })
        }
        router.get("redirect") { _, _ in
            Response(status: .found, headers: [.location: "/json/user/1"])
        }
        router.get("loop") { _, _ in Response(status: .found, headers: [.location: "/loop"]) }
        // `/redirect-to?status=307&location=URL`, for any method: a redirect with a small body.
        for method in [HTTPRequest.Method.get, .head, .post, .put, .delete] {
            router.on("redirect-to", method: method) { request, _ in
                let query = request.uri.queryParameters
                let status = query.get("status", as: Int.self) ?? 302
                let location = query.get("location").map { String($0) } ?? "/"
                return Response(
                    status: .init(code: status), headers: [.location: location, .contentType: "text/plain"],
                    body: .init(byteBuffer: ByteBuffer(string: "moved")))
            }
        }
    }

    static func echo(_ request: Request) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 64 * 1024 * 1024)
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
        }
        let reply = EchoReply(
            method: request.method.rawValue,
            path: request.uri.path,
            query: request.uri.query,
            headers: headers,
            body: Data(buffer: body).base64EncodedString()
        )
        return try json(reply)
    }

    static func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(value)
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func text(_ string: String, status: HTTPResponse.Status, type: String) -> Response {
        Response(status: status, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: string)))
    }
}

/// What `/echo/**` saw: the request as the server parsed it.
public struct EchoReply: Codable, Sendable, Equatable {
    /// The method, `GET`.
    public var method: String
    /// The path, `/echo/a`.
    public var path: String
    /// The raw query string without `?`, or `nil`.
    public var query: String?
    /// Header fields by lowercased name; repeated fields joined with `, `.
    public var headers: [String: String]
    /// The body bytes, Base64.
    public var body: String

    /// The body bytes.
    public var bodyData: Data { Data(base64Encoded: body) ?? Data() }
}
