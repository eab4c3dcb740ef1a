import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import Strata

/// Event-stream routes that count their connections and what each one asked for, for
/// the reconnection tests; add them with ``register(on:)``.
///
/// - `GET /events/feed?total=N&per=K&ending=E&retry=MS`: events `id: i`, `data: event i`
///   for `i` after the request's `Last-Event-ID` (0 without one), at most `K` a
///   connection, with a keep-alive comment before each; then, by `ending`: `close` ends
///   the body, `partial` sends half an event (`id: 999`, `data: partial`, no blank line)
///   and ends the body, `drop` sends half an event and resets the connection. Once all
///   `N` were sent, a connection gets `204 No Content`. With `retry`, the first block of
///   every connection is `retry: MS`.
/// - `GET /events/status/{code}`: that status, with `Content-Type: text/event-stream`.
/// - `GET /events/plain`: `200` with an event in a `text/plain` body.
/// - `GET /events/silent`: `id: 1`, `data: hello`, then nothing for a second; a request
///   with `Last-Event-ID: 1` gets `204`.
/// - `GET /events/endless`: an event every 5 ms until the client goes away.
/// - `GET /events/moved?{query}`: `307 Temporary Redirect` to `/events/feed?{query}`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public final class EventStreamRoutes: Sendable {
    /// One connection a route received.
    public struct Connection: Sendable, Equatable {
        /// The route's path.
        public var path: String
        /// The request's `Last-Event-ID`, if it sent one.
        public var lastEventID: String?
        /// The request's `Accept`.
        public var accept: String?
    }

    private let received = NIOLockedValueBox<[Connection]>([])

    /// Creates the routes with no connection counted.
    public init() {}

    /// The connections so far, in order.
    public var connections: [Connection] { received.withLockedValue { $0 } }

    private static let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache"]

    /// Adds the routes to `router`.
    public func register(on router: Router<BasicRequestContext>) {
        router.get("events/feed") { request, _ in
            let lastID = self.record(request)
            let query = request.uri.queryParameters
            let total = query.get("total", as: Int.self) ?? 10
            let perConnection = max(1, query.get("per", as: Int.self) ?? 3)
            let ending = query.get("ending") ?? "close"
            let retry = query.get("retry", as: Int.self)
            let first = (lastID.flatMap { Int($0) } ?? 0) + 1
            guard first <= total else { return Response(status: .noContent) }
            return Response(
                status: .ok, headers: Self.headers,
                body: .init { writer in
                    if let retry { try await writer.write(ByteBuffer(string: "retry: \(retry)\n\n")) }
                    for id in first...min(total, first + perConnection - 1) {
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\nid: \(id)\ndata: event \(id)\n\n"))
                    }
                    if ending != "close" { try await writer.write(ByteBuffer(string: "id: 999\ndata: partial")) }
                    if ending == "drop" { throw EventStreamRoutesError.droppedOnPurpose }
                    try await writer.finish(nil)
                })
        }
        router.get("events/moved") { request, _ in
            self.record(request)
            let query = request.uri.query.map { "?\($0)" } ?? ""
            return Response(status: .temporaryRedirect, headers: [.location: "/events/feed\(query)"])
        }
        router.get("events/status/:code") { request, context in
            self.record(request)
            let code = context.parameters.get("code", as: Int.self) ?? 500
            return Response(status: .init(code: code), headers: Self.headers, body: .init(byteBuffer: ByteBuffer()))
        }
        router.get("events/plain") { request, _ in
            self.record(request)
            return Response(
                status: .ok, headers: [.contentType: "text/plain"],
                body: .init(byteBuffer: ByteBuffer(string: "data: plain\n\n")))
        }
        router.get("events/silent") { request, _ in
            guard self.record(request) != "1" else { return Response(status: .noContent) }
            return Response(
                status: .ok, headers: Self.headers,
                body: .init { writer in
                    try await writer.write(ByteBuffer(string: "id: 1\ndata: hello\n\n"))
                    try? await Deadline.sleep(for: .seconds(1))
                    try await writer.finish(nil)
                })
        }
        router.get("events/endless") { request, _ in
            self.record(request)
            return Response(
                status: .ok, headers: Self.headers,
                body: .init { writer in
                    var id = 0
                    while true {
                        id += 1
                        try await writer.write(ByteBuffer(string: "id: \(id)\ndata: tick \(id)\n\n"))
                        try await Deadline.sleep(for: .milliseconds(5))
                    }
                })
        }
    }

    /// Counts the connection; returns its `Last-Event-ID`.
    @discardableResult
    private func record(_ request: Request) -> String? {
        let lastID = request.headers[HTTPField.Name("Last-Event-ID")!]
        let connection = Connection(path: request.uri.path, lastEventID: lastID, accept: request.headers[.accept])
        received.withLockedValue { $0.append(connection) }
        return lastID
    }
}

/// Why an event-stream route ended its body abruptly.
enum EventStreamRoutesError: Error {
    /// The route resets the connection, as a dropped network would.
    case droppedOnPurpose
}
