import Foundation
import HTTPTypes

/// Sends HTTP requests: the one piece of Strata that touches the network.
///
/// Strata ships transports over URLSession (`StrataURLSession`), AsyncHTTPClient
/// (`StrataAsyncHTTPClient`) and an in-memory mock (`StrataTesting`); anything that can
/// turn an `HTTPRequest` and a body into an `HTTPResponse` and a body can be one.
///
/// A transport must:
/// - stop the request and throw `CancellationError` (or its own cancellation error)
///   when the calling task is cancelled: that is how the ``Networker`` ends a call
///   whose deadline passed, also while the response body is read;
/// - report failures as ``TransportError`` where it can classify them (anything else it
///   throws reaches the caller as ``TransportError/Kind/other`` with the error attached);
/// - return `nil` as the body of a response that
///   `HTTPResponse.cannotHaveBody(respondingTo:)`.
///
/// The ``Networker`` owns the deadline: it enforces it itself, so a transport that
/// ignores `deadline` cannot switch timeouts off. A transport should still use it to
/// give up early (and throw ``TransportError/Kind/timedOut``), for example by handing
/// it to the HTTP client underneath; one that does so reliably says so with
/// ``enforcesDeadline``, and saves the `Networker`'s task per call.
public protocol Transport: Sendable {
    /// Sends `request` with `body` and returns the response head and body.
    ///
    /// - Parameters:
    ///   - request: method, URL (scheme, authority, path) and header fields.
    ///   - body: the request body, or `nil`.
    ///   - deadline: when the caller gives up on this attempt; `nil` for never.
    /// - Returns: the response head and its body (`nil` when the response has none). The
    ///   body may be streamed; the caller reads it within its own deadline.
    func send(
        _ request: HTTPRequest,
        body: MessageBody?,
        deadline: ContinuousClock.Instant?
    ) async throws -> (HTTPResponse, MessageBody?)

    /// Whether this transport bounds a request by itself: ``send(_:body:deadline:)``
    /// returns, or throws a ``TransportError`` of kind ``TransportError/Kind/timedOut``,
    /// by `deadline` whatever the server does, and it stops at once when the calling
    /// task is cancelled.
    ///
    /// A ``Networker`` over such a transport, whose middleware are all Strata's own
    /// steps that bound their waits, runs a call up to the response head in the caller's
    /// task instead of a task of its own (one thread hand-off less per request), and
    /// still reads the body within the deadline. `false` by default: the `Networker` then
    /// enforces the deadline around everything, whatever the transport does.
    var enforcesDeadline: Bool { get }
}

extension Transport {
    /// `false`: the ``Networker`` enforces the deadline around this transport.
    public var enforcesDeadline: Bool { false }
}
