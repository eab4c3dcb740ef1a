import Foundation
import HTTPTypes
import Strata
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``Transport`` over Foundation's `URLSession`, on Apple platforms and on Linux
/// (swift-corelibs-foundation's `FoundationNetworking`).
///
/// The transport uses completion-handler tasks and no task delegates, because
/// delegates are unreliable in `FoundationNetworking`; a session the transport creates
/// has a session delegate only to end authentication challenges (see below). That has
/// consequences:
///
/// - **Request bodies are sent from memory.** A streamed ``MessageBody`` (for example
///   multipart form data read from files) is collected into memory before the request
///   starts, up to ``streamedBodyLimit`` bytes; a larger body fails with a
///   ``TransportError`` of kind ``TransportError/Kind/invalidRequest`` whose
///   underlying error is ``MessageBodyError/tooLarge(limit:)``. For large uploads, use
///   the AsyncHTTPClient transport.
/// - **Response bodies are buffered.** `URLSession` hands over the whole body at the
///   end, so the returned body is always in memory, never streamed. Responses that
///   ``HTTPResponse/cannotHaveBody(respondingTo:)`` have no body (`nil`).
/// - **`GET` and `HEAD` cannot carry a body.** `URLSession` fails them; the transport
///   drops an empty body and refuses a non-empty one with
///   ``TransportError/Kind/invalidRequest``.
/// - **Redirects are followed** by `URLSession`, as it does by default; the returned
///   response is the final one. On Linux, `307`/`308` redirects keep the method but
///   drop the request body (observed against httpbin: a `POST` to
///   `/redirect-to?status_code=307` arrives as a `POST` with no body), a
///   `FoundationNetworking` limitation without task delegates.
/// - **Authentication challenges are not answered.** On Linux, a `401`/`407` that
///   carries a challenge (`FoundationNetworking` raises one for a `401` with a
///   `WWW-Authenticate` header) arrives with its status and header fields but an
///   **empty body**: `FoundationNetworking` drops it. Credentials in the configuration's
///   `urlCredentialStorage` are not used there; send an `Authorization` header instead
///   (for example with ``HeadersMiddleware``). On Apple platforms the challenge gets
///   `URLSession`'s default handling and the response arrives with its body. A borrowed
///   session needs a delegate of its own on Linux; see ``init(session:streamedBodyLimit:)``.
/// - **`URLSession` adds its own header fields** (`Accept`, `Accept-Encoding`,
///   `User-Agent`, …) when the request lacks them, and decodes compressed responses;
///   the returned body is the decoded bytes.
///
/// Deadlines: the ``Networker`` enforces the call's deadline by cancelling the calling
/// task, which cancels the `URLSessionTask` at once and throws `CancellationError`. The
/// transport also sets the request's `timeoutInterval` (an idle timeout) to the time
/// left, rounded up to whole seconds because `FoundationNetworking` truncates it, so
/// `URLSession` gives up on its own too (``TransportError/Kind/timedOut``); used
/// without a ``Networker``, that idle timeout is the only limit.
public struct URLSessionTransport: Transport {
    /// The default for ``streamedBodyLimit``: 512 MiB.
    public static let defaultStreamedBodyLimit = 512 * 1024 * 1024

    /// The session every request goes through. When the transport created it, its
    /// delegate cancels authentication challenges on Linux, also for tasks made on it
    /// directly (they fail with `URLError.cancelled` instead of hanging).
    public var session: URLSession { owner.session }
    /// The most bytes a streamed request body may hold; it is collected into memory first.
    public let streamedBodyLimit: Int
    /// The session and, when the transport created it, its delegate.
    let owner: SessionOwner

    /// Creates a transport with its own session, made once from `configuration` and
    /// reused for every request. The session is invalidated, letting running tasks
    /// finish, when the last copy of the transport goes away. Its delegate ends
    /// authentication challenges on Linux, so that a `401` is returned rather than
    /// hanging (see the type's documentation).
    /// - Parameters:
    ///   - configuration: the session's configuration; `.default` unless told.
    ///   - streamedBodyLimit: the most bytes a streamed request body may hold.
    public init(
        configuration: URLSessionConfiguration = .default,
        streamedBodyLimit: Int = Self.defaultStreamedBodyLimit
    ) {
        self.owner = SessionOwner(configuration: configuration)
        self.streamedBodyLimit = streamedBodyLimit
    }

    /// Creates a transport that borrows `session`; the caller keeps ownership and
    /// decides when to invalidate it.
    ///
    /// - Important: On Linux, a borrowed session without a delegate that ends
    ///   authentication challenges (`URLSession.shared` has none) hangs on a `401` with
    ///   a `WWW-Authenticate` header until the deadline, then throws
    ///   ``TransportError/Kind/timedOut``: `FoundationNetworking` neither retries nor
    ///   delivers the response. A delegate answering `urlSession(_:task:didReceive:completionHandler:)`
    ///   with `.cancelAuthenticationChallenge` makes such a request fail at once with
    ///   `URLError.cancelled` (kind ``TransportError/Kind/other``) instead; to receive the
    ///   `401` itself, let the transport create its session with ``init(configuration:streamedBodyLimit:)``.
    /// - Parameters:
    ///   - session: the session to send requests through, for example `.shared`.
    ///   - streamedBodyLimit: the most bytes a streamed request body may hold.
    public init(session: URLSession, streamedBodyLimit: Int = Self.defaultStreamedBodyLimit) {
        self.owner = SessionOwner(borrowing: session)
        self.streamedBodyLimit = streamedBodyLimit
    }

    /// Sends `request` through the session; see ``Transport/send(_:body:deadline:)``.
    /// - Throws: `CancellationError` when the calling task is cancelled, and
    ///   ``TransportError`` for failures below HTTP (see the type's documentation).
    public func send(
        _ request: HTTPRequest,
        body: MessageBody?,
        deadline: ContinuousClock.Instant?
    ) async throws -> (HTTPResponse, MessageBody?) {
        try Task.checkCancellation()
        var urlRequest = try Self.makeURLRequest(request)
        let bytes = try Self.payload(await Self.collect(body, limit: streamedBodyLimit), method: request.method)
        if let deadline {
            urlRequest.timeoutInterval = try Self.timeoutInterval(until: deadline)
        }
        let call = DataTaskCall(session: session, challenges: owner.challenges, request: urlRequest, body: bytes)
        return Self.makeResponse(try await call.run(), method: request.method)
    }
}
