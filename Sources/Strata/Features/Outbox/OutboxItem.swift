import Foundation
import HTTPTypes

/// A request kept in an ``Outbox`` until the server gave it a final answer: the request as
/// it is sent (method, target, header fields, body bytes), its `Idempotency-Key` and its
/// group.
///
/// The header fields include the `Idempotency-Key`, made once when the item was enqueued
/// (or the one the request already had), so that every attempt — after a lost
/// connection, after a restart — carries the same key. Credentials are not stored: the
/// client's authentication step adds them when the item is sent.
public struct OutboxItem: Sendable, Hashable, Codable, Identifiable {
    /// A header field as stored.
    public struct Field: Sendable, Hashable, Codable {
        /// The field's name, as sent.
        public var name: String
        /// The field's value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The item's identity.
    public let id: UUID
    /// The items of one group are delivered one at a time, in the order they were
    /// enqueued; groups go independently.
    public let group: String
    /// The place in the outbox, given by the store when the item is added: items are
    /// delivered in this order within a group.
    public var sequence: Int64
    /// The method, for example `POST`.
    public let method: String
    /// The scheme, `http` or `https`.
    public let scheme: String
    /// The host and port.
    public let authority: String
    /// The path and query.
    public let path: String
    /// The header fields sent, the `Idempotency-Key` among them.
    public let fields: [Field]
    /// The body, or `nil` for none (or a file).
    public let body: Data?
    /// The file whose bytes are the body, read when the item is sent (a request with a
    /// ``RequestBody/file(_:contentType:)`` body); `nil` for none. The file must still be
    /// there then: a missing one makes the item a dead letter.
    public let bodyFile: URL?
    /// The attributes the client's steps see (``Endpoint/attributes``).
    public let attributes: [String: String]
    /// The `Idempotency-Key` every attempt carries.
    public let idempotencyKey: String
    /// When the item was enqueued.
    public let enqueuedAt: Date
    /// How many attempts were answered with a failure the outbox retries (kept by the
    /// store).
    public var failedAttempts: Int

    /// How many bytes the item holds: what an outbox's byte limit counts.
    public var size: Int {
        (body?.count ?? 0) + method.utf8.count + scheme.utf8.count + authority.utf8.count + path.utf8.count
            + fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }

    /// The request head to send, or `nil` when the stored parts no longer make one (a
    /// damaged store).
    var request: HTTPRequest? {
        guard let method = HTTPRequest.Method(method) else { return nil }
        var headerFields = HTTPFields()
        for field in fields {
            guard let name = HTTPField.Name(field.name) else { return nil }
            headerFields.append(HTTPField(name: name, value: field.value))
        }
        return HTTPRequest(method: method, scheme: scheme, authority: authority, path: path, headerFields: headerFields)
    }

    /// Creates an item from an encoded request; `sequence` is the store's to give.
    init(
        request: EncodedRequest, body: Data?, bodyFile: URL?, group: String, attributes: [String: String], now: Date
    ) {
        var head = request.head
        let key = head.headerFields[RetryPolicy.idempotencyKey] ?? UUID().uuidString
        head.headerFields[RetryPolicy.idempotencyKey] = key
        self.id = UUID()
        self.group = group
        self.sequence = 0
        self.method = head.method.rawValue
        self.scheme = head.scheme ?? "https"
        self.authority = head.authority ?? ""
        self.path = head.path ?? "/"
        self.fields = head.headerFields.map { Field(name: $0.name.rawName, value: $0.value) }
        self.body = body
        self.bodyFile = bodyFile
        self.attributes = attributes
        self.idempotencyKey = key
        self.enqueuedAt = now
        self.failedAttempts = 0
    }
}

/// An item the server refused for good (a `4xx` other than `408`, `425` and `429`), or
/// that could not be sent at all, kept with the answer until the app retries or discards
/// it.
public struct DeadLetter: Sendable, Hashable, Codable, Identifiable {
    /// The item, as it was last sent.
    public let item: OutboxItem
    /// The final response's status, or `nil` when the item failed without one.
    public let status: Int?
    /// The final response's header fields.
    public let responseFields: [OutboxItem.Field]
    /// The final response's body (at most the client's error-body limit).
    public let responseBody: Data
    /// Why the item was refused, for people.
    public let reason: String
    /// When it was refused.
    public let date: Date

    /// The item's identity.
    public var id: UUID { item.id }

    /// Creates a dead letter.
    public init(
        item: OutboxItem, status: Int?, responseFields: [OutboxItem.Field], responseBody: Data, reason: String,
        date: Date
    ) {
        self.item = item
        self.status = status
        self.responseFields = responseFields
        self.responseBody = responseBody
        self.reason = reason
        self.date = date
    }
}
