import Foundation
import HTTPTypes

/// What happened to an ``Outbox``'s items, in order, from ``Outbox/events``.
public enum OutboxEvent: Sendable {
    /// The item was stored; it will be delivered.
    case enqueued(OutboxItem)
    /// An attempt failed in a way the outbox retries; the next comes after `retryingIn`
    /// (and after ``OutboxPolicy/isReachable`` says so, when set).
    case attemptFailed(OutboxItem, OutboxFailure, retryingIn: Duration)
    /// The server answered the item; it was removed from the outbox. `body` is the
    /// answer's first bytes, at most the client's ``Networker/Configuration/errorBodyLimit``.
    case delivered(OutboxItem, HTTPResponse, body: Data)
    /// The item was refused for good and kept as a dead letter.
    case deadLettered(DeadLetter)
}

/// How an attempt failed.
public enum OutboxFailure: Sendable {
    /// The server answered with a status the outbox retries (`408`, `425`, `429`, `5xx`);
    /// `body` is the answer's first bytes (at most the client's error-body limit).
    case response(HTTPResponse, body: Data)
    /// The call failed before a response: the connection, a timeout, a step of the client.
    case error(StrataError)
}
