import Foundation
import Hummingbird
import NIOCore
import Strata

/// `GET /chat` and `GET /notifications`: event streams in the shapes apps consume.
///
/// - `GET /chat`: a chat completion as LLM APIs stream one: a keep-alive comment, then
///   one `data: {json}` event a token (``chatReply``, a word at a time, 15 ms apart, with
///   another keep-alive comment midway), then `data: [DONE]`.
/// - `GET /notifications`: ``notificationCount`` notifications (`event: notice`,
///   `id: N`, `data: {"id":N,"text":…,"connection":K}`), at most
///   ``notificationsPerConnection`` a connection, resuming after the request's
///   `Last-Event-ID`; every connection starts with `retry: 50` and ends halfway through
///   its next event, as a dropped connection does. Once all were sent, `204 No Content`:
///   the stream is over.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum StreamRoutes {
    /// The text `/chat` streams.
    static let chatReply = "Strata streams every token the moment it arrives."
    /// How many notifications `/notifications` has.
    static let notificationCount = 12
    /// How many notifications one connection of `/notifications` delivers.
    static let notificationsPerConnection = 5

    private static let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache"]

    static func register(on router: Router<BasicRequestContext>) {
        router.get("chat") { _, _ in
            Response(
                status: .ok, headers: headers,
                body: .init { writer in
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    for (index, token) in chatTokens.enumerated() {
                        try await Deadline.sleep(for: .milliseconds(15))
                        let chunk = ChatChunkPayload(
                            id: "chat-1", choices: [.init(index: 0, delta: .init(content: token))])
                        try await writer.write(ByteBuffer(string: "data: \(try Responses.jsonText(chunk))\n\n"))
                        if index == chatTokens.count / 2 {
                            try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        }
                    }
                    try await writer.write(ByteBuffer(string: "data: [DONE]\n\n"))
                    try await writer.finish(nil)
                })
        }
        router.get("notifications") { request, _ in
            let lastID = request.headers.first { $0.name.canonicalName == "last-event-id" }?.value
            let last = lastID.flatMap { Int($0) } ?? 0
            guard last < notificationCount else { return Response(status: .noContent) }
            let connection = last / notificationsPerConnection + 1
            let ids = (last + 1)...min(last + notificationsPerConnection, notificationCount)
            return Response(
                status: .ok, headers: headers,
                body: .init { writer in
                    try await writer.write(ByteBuffer(string: "retry: 50\n\n"))
                    for id in ids {
                        let notice = NoticePayload(id: id, text: "Notification \(id)", connection: connection)
                        try await writer.write(
                            ByteBuffer(string: "event: notice\nid: \(id)\ndata: \(try Responses.jsonText(notice))\n\n"))
                    }
                    if ids.upperBound < notificationCount {
                        // Half of the next event, then the end: what a client sees of a
                        // connection that drops mid-event (a reset could also lose what came
                        // before it, and the tour's counts are exact).
                        try await writer.write(
                            ByteBuffer(string: "event: notice\nid: \(ids.upperBound + 1)\ndata: {\"id\""))
                    }
                    try await writer.finish(nil)
                })
        }
    }

    /// ``chatReply`` a word at a time, each with the space before it.
    static let chatTokens: [String] = {
        let words = chatReply.split(separator: " ").map(String.init)
        return words.enumerated().map { $0.offset == 0 ? $0.element : " " + $0.element }
    }()
}

/// One event of `/chat`, in the shape chat-completion APIs use.
struct ChatChunkPayload: Codable, Sendable {
    struct Choice: Codable, Sendable {
        struct Delta: Codable, Sendable {
            var content: String
        }
        var index: Int
        var delta: Delta
    }
    var id: String
    var choices: [Choice]
}

/// One notification of `/notifications`.
struct NoticePayload: Codable, Sendable {
    var id: Int
    var text: String
    var connection: Int
}
