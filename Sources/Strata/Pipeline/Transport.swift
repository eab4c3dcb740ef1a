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
///   when the calling task is cancelled;
/// - give up with a ``TransportError`` of kind ``TransportError/Kind/timedOut`` once
///   `deadline` has passed, whether the server is silent or slow;
/// - report other failures as ``TransportError`` where it can classify them.
public protocol Transport: Sendable {
    /// Sends `request` with `body` and returns the response head and body.
    ///
    /// - Parameters:
    ///   - request: method, URL (scheme, authority, path) and header fields.
    ///   - body: the request body, or `nil`.
    ///   - deadline: when to give up on the whole exchange, body included; `nil` for never.
    /// - Returns: the response head and its body (`nil` when the response has none). The
    ///   body may be streamed; it is read within the same deadline.
    func send(
        _ request: HTTPRequest,
        body: MessageBody?,
        deadline: ContinuousClock.Instant?
    ) async throws -> (HTTPResponse, MessageBody?)
}
