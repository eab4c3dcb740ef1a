import Foundation
import HTTPTypes
import Strata

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `Transport` over Foundation's `URLSession`, on Apple platforms and on Linux
/// (swift-corelibs-foundation's `FoundationNetworking`).
///
/// - Warning: On Linux, a server (or anything on the path to it) can stop a process that
///   uses this transport. `FoundationNetworking` ends the process with
///   `Fatal error: Transfer completed, but there's no response.` (`NativeProtocol.swift`)
///   when the connection closes before a whole response head has arrived — for example
///   `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Len`, then FIN, or
///   nothing at all, then FIN — and traps in a libcurl callback
///   (`_EasyHandle.setupCallbacks`) on a `Content-Length` of `9223372036854775807`. No
///   transport can catch either. They are the only crash sites of Strata's
///   hostile-response corpus on this transport, and about one response in 40 of that
///   corpus reaches them — any server that fails mid-response can. That is why
///   `Networker()` uses AsyncHTTPClient on Linux (whose one crash needs a status code under
///   100); choose this transport there only for servers you trust.
///
/// ## On a session the transport creates
/// ``init(configuration:streamedBodyLimit:responseBufferLimit:)`` makes a session whose
/// delegate (one object for all its tasks) receives each task's events; tasks have no
/// completion handlers. Then:
///
/// - **`send` returns when the response head arrives, and the body streams.** The body
///   is a one-shot `MessageBody` fed by the task's `didReceive data` events; its
///   `MessageBody.length` is the `Content-Length` of a body that is not
///   content-encoded, so `collect(upTo:)` (and the `Networker`'s
///   `Networker.Configuration.maxResponseBodySize`) refuses a declared length over the
///   limit before reading any of it, and stops any other (chunked, or content-encoded and
///   counted in decoded bytes, as a decompression bomb is) right after the limit.
///   Dropping the body (or ending its consumption early) cancels the `URLSessionTask`;
///   so does cancelling the task that reads it, which throws `CancellationError`.
/// - **The bytes that wait unread stay bounded.** There is no pausing a data task to
///   rely on: in `FoundationNetworking`, `suspend()` in the middle of a body kept
///   receiving for seconds (it takes the transfer off libcurl's multi handle only when
///   the session's work queue gets to it), and `resume()` sent the request again and
///   delivered a second head and the whole body again (observed); Apple documents that a
///   suspended task produces no network traffic, but not that a data task goes on where
///   it stopped, so the transport does not suspend there either. Chunks that arrive
///   while nobody reads are buffered up to ``responseBufferLimit`` bytes (each read takes
///   the oldest one); past that, the task is cancelled and the next read throws a
///   `TransportError` of kind `TransportError.Kind.other` with
///   ``URLSessionTransportError/responseBufferFull(limit:)``. A reader slower than the
///   network, for a body larger than the limit, needs the AsyncHTTPClient transport,
///   which applies back-pressure.
/// - **Redirects are not followed.** The delegate refuses every redirect, so a `3xx`
///   response is returned as it is, with its `Location` and body; following redirects
///   (and deciding which header fields may go to another origin) is the client's job.
///   On Linux the body of a `301`, `302`, `303`, `305`, `307` or `308` is held by
///   `FoundationNetworking` until that response is complete and arrives in one chunk
///   (only the deadline bounds it), and such a response without a `Location` field
///   arrives with an empty body (`FoundationNetworking` drops it).
/// - **Authentication challenges end.** On Linux, `FoundationNetworking` turns a `401`
///   with a `WWW-Authenticate` header into a challenge it cannot answer without
///   credentials and would hang; the delegate cancels it, and the `401` is returned with
///   its header fields and body. Credentials in the configuration's
///   `urlCredentialStorage` are not used there; send an `Authorization` header instead
///   (for example with `HeadersMiddleware`). On Apple platforms challenges get
///   `URLSession`'s default handling, and a `401` it cannot answer is returned.
///
/// Tasks made directly on ``session`` get the same redirect and challenge handling; their
/// other events are ignored.
///
/// ## On a borrowed session
/// ``init(session:streamedBodyLimit:responseBufferLimit:)`` sends through a session the
/// caller owns. Its own delegate decides redirects and challenges. The transport cannot
/// have the task's events one by one there: on such a session `FoundationNetworking`
/// gives a task delegate only the redirect callback (observed), and the transport keeps
/// to completion handlers on Apple platforms too, so as not to take decisions from the
/// session's delegate. So requests run with completion handlers and **the body is
/// buffered whole** before `send` returns (in memory; `MessageBody.bufferedData` holds
/// it), with no limit but the deadline. A session another
/// `URLSessionTransport` created is the exception: its delegate is the transport's, and
/// requests stream as on a session of one's own.
///
/// ## Everywhere
/// - **A file is sent from the file; other request bodies from memory.** A body made
///   from a file (`RequestBody.file(_:contentType:)`, `MessageBody.file`) goes
///   with an upload task from that file, which the session reads as it sends, and the
///   bytes sent reach `MessageBody.sentBytesHandler` (upload progress). Any other
///   streamed `MessageBody` (for example multipart form data read from files) is
///   collected into memory before the request starts, up to ``streamedBodyLimit``
///   bytes; a larger body fails with a `TransportError` of kind
///   `TransportError.Kind.invalidRequest` whose underlying error is
///   `MessageBodyError.tooLarge(limit:)`. For large uploads of other kinds, use the
///   AsyncHTTPClient transport.
/// - **Responses that `HTTPResponse.cannotHaveBody(respondingTo:)` have no body**
///   (`nil`); `send` waits for their task to complete, so nothing outlives the call.
/// - **`GET` and `HEAD` cannot carry a body.** `URLSession` fails them; the transport
///   drops an empty body and refuses a non-empty one with
///   `TransportError.Kind.invalidRequest`.
/// - **Failures follow the table in `TransportError`**, each with a one-line
///   `TransportError.detail` naming the `URLError` (for example
///   `URLError -1 unknown: transfer closed with 90 bytes remaining to read`), which stays
///   the `TransportError.underlying` error. On Linux, where `FoundationNetworking`
///   reports most libcurl failures as `URLError.unknown`, curl's message decides the
///   kind. Response heads carry the standard reason phrase of their status
///   (`HTTPURLResponse` keeps none).
/// - **`URLSession` adds its own header fields** (`Accept`, `User-Agent`, …) when the
///   request lacks them, and decodes content-encoded responses; the returned body is the
///   decoded bytes.
/// - **Compressed bodies on Linux.** libcurl does not notice a gzip or deflate stream
///   that ends early when the framing (`Content-Length` or chunks) is complete: the
///   truncated, decoded bytes arrive as a success. It decodes whatever encoding the
///   server sends, whatever the request asked for. So on Linux the transport sends
///   `Accept-Encoding: identity` when the request has no `Accept-Encoding` field:
///   servers that honour it send plain bytes, whose length libcurl checks (a body cut
///   short is `TransportError.Kind.connectionLost`). A request that sets its own
///   `Accept-Encoding` gets compressed responses, decoded, without that check. A body
///   that does not decode at all is `TransportError.Kind.malformedResponse`. On
///   Apple platforms the transport leaves `Accept-Encoding` to `URLSession`.
///
/// Deadlines: the transport bounds a call until its response head arrives (the whole
/// response on a borrowed session that buffers it): at the deadline a timer in Strata's
/// scheduler, not a task per request, cancels the `URLSessionTask`, and the call throws
/// `TransportError.Kind.timedOut` (``enforcesDeadline``). The `Networker` bounds the
/// body's reads by cancelling the reading task, which cancels the `URLSessionTask` and
/// throws `CancellationError` at once. The transport also sets the request's
/// `timeoutInterval` (an idle timeout) to the time left, rounded up to whole seconds
/// because `FoundationNetworking` truncates it, so `URLSession` gives up on its own too
/// (`TransportError.Kind.timedOut`); used without a `Networker`, that idle timeout is
/// the only limit on the body's reads.
///
/// On Linux, `FoundationNetworking` runs all the transfers of a session on one work
/// queue, which a peer sending faster than libcurl processes (seen on loopback) can keep
/// busy: `URLSessionTask.cancel()` waits for that queue (observed: up to about 2 s), and
/// so do other requests on the same transport (observed: 0.01 s to over 1 s for a small
/// request beside such a body, a few timing out at a 3 s deadline). The transport
/// therefore cancels from a global dispatch queue and drops every byte that arrives after
/// it gave up, so the caller is answered at once and memory stays bounded while
/// `FoundationNetworking` gets round to closing the connection.
public struct URLSessionTransport: Transport {
    /// The default for ``streamedBodyLimit``: 512 MiB on macOS and Linux, 64 MiB on iOS,
    /// tvOS and visionOS, 16 MiB on watchOS. A streamed body is collected in memory before
    /// `URLSession` sends it, and an app that holds hundreds of MiB on a phone or a watch
    /// is stopped by the system; send larger uploads from a file (`RequestBody.file`),
    /// which `URLSession` reads as it sends.
    public static let defaultStreamedBodyLimit: Int = {
        #if os(watchOS)
            16 * 1024 * 1024
        #elseif os(iOS) || os(tvOS) || os(visionOS)
            64 * 1024 * 1024
        #else
            512 * 1024 * 1024
        #endif
    }()
    /// The default for ``responseBufferLimit``: 32 MiB, the default
    /// `Networker.Configuration.maxResponseBodySize`, so that a collecting reader that
    /// falls behind by a whole body still ends with the client's own limit (or the body),
    /// and at most twice that limit is held.
    public static let defaultResponseBufferLimit = 32 * 1024 * 1024

    /// The session every request goes through. When the transport created it, its
    /// delegate refuses redirects and, on Linux, ends authentication challenges, also for
    /// tasks made on it directly.
    public var session: URLSession { owner.session }
    /// The most bytes a streamed request body may hold; it is collected into memory first.
    public let streamedBodyLimit: Int
    /// The most bytes of a streamed response body that may arrive and wait unread
    /// before the transport stops the request (see the type's documentation). Not used
    /// for a borrowed session whose bodies are buffered.
    public let responseBufferLimit: Int
    /// The session and, when it is the transport's kind, its delegate.
    let owner: SessionOwner
    /// Whether requests may try HTTP/3 at once (`URLRequest.assumesHTTP3Capable`, Apple
    /// platforms), instead of waiting for the server's `Alt-Svc` to offer it; `false` by default.
    /// Ignored on Linux, where `FoundationNetworking` has no such switch. Which version
    /// answered is not reported by this transport: `FoundationNetworking` fills in no task
    /// metrics, and Apple's arrive only after the call has ended.
    public var assumesHTTP3Capable = false

    /// Creates a transport with its own session, made once from `configuration` and
    /// reused for every request. The session is invalidated, letting running tasks
    /// finish, when the last copy of the transport goes away. Its delegate streams
    /// response bodies, refuses redirects and ends authentication challenges (see the
    /// type's documentation).
    ///
    /// The session does not use Foundation's `URLCache`, whatever `configuration` says
    /// (its `urlCache` is `nil`, its `requestCachePolicy`
    /// `.reloadIgnoringLocalCacheData`): Strata's `CacheMiddleware` is the cache, and a
    /// second cache below it would answer requests it sends to revalidate. A session you
    /// make yourself and pass to ``init(session:streamedBodyLimit:responseBufferLimit:)``
    /// keeps the cache you configured.
    /// - Parameters:
    ///   - configuration: the session's configuration; `.default` unless told.
    ///   - streamedBodyLimit: the most bytes a streamed request body may hold.
    ///   - responseBufferLimit: the most bytes of a response body that may wait unread.
    public init(
        configuration: URLSessionConfiguration = .default,
        streamedBodyLimit: Int = Self.defaultStreamedBodyLimit,
        responseBufferLimit: Int = Self.defaultResponseBufferLimit
    ) {
        self.owner = SessionOwner(configuration: configuration)
        self.streamedBodyLimit = streamedBodyLimit
        self.responseBufferLimit = responseBufferLimit
    }

    /// Creates a transport with its own session, as
    /// ``init(configuration:streamedBodyLimit:responseBufferLimit:)``, whose delegate
    /// applies `trust`.
    ///
    /// - **Apple platforms**: for a host whose policy is not the system's, the
    ///   server-trust challenge is answered by the policy — its roots as anchors (alone or
    ///   with the system's), `SecTrustEvaluateWithError`, then its pins against the
    ///   SHA-256 of each certificate's public key in the verified chain — and a
    ///   client-certificate challenge with its identity, which must be PKCS #12. The
    ///   minimum version is the session's, so every policy must give the same one.
    /// - **Linux**: `FoundationNetworking` hands a session's delegate no TLS challenge and
    ///   applies no TLS setting, so only `ServerTrust.system` is taken; use the
    ///   AsyncHTTPClient transport for anything else.
    ///
    /// A refused server fails the call with a `TransportError` of kind `.tls` whose
    /// `TransportError.tlsFailure` says why (with the presented pins on a pin mismatch).
    /// - Parameters:
    ///   - configuration: the session's configuration; `.default` unless told.
    ///   - trust: whom the session trusts, per host.
    ///   - streamedBodyLimit: the most bytes a streamed request body may hold.
    ///   - responseBufferLimit: the most bytes of a response body that may wait unread.
    /// - Throws: `TrustConfigurationError` naming this transport and the setting the
    ///   platform cannot apply.
    public init(
        configuration: URLSessionConfiguration = .default,
        trust: ServerTrust,
        streamedBodyLimit: Int = Self.defaultStreamedBodyLimit,
        responseBufferLimit: Int = Self.defaultResponseBufferLimit
    ) throws(TrustConfigurationError) {
        self.owner = SessionOwner(configuration: configuration, trust: try URLSessionTrust(trust))
        self.streamedBodyLimit = streamedBodyLimit
        self.responseBufferLimit = responseBufferLimit
    }

    /// Creates a transport with its own session, as
    /// ``init(configuration:trust:streamedBodyLimit:responseBufferLimit:)``, that sends
    /// requests through the proxies of `proxy`.
    ///
    /// - **Apple platforms**: the session's `connectionProxyDictionary` says where to go (an
    ///   HTTP proxy per scheme, or one SOCKS5 proxy for every connection, and the bypass
    ///   list as its exceptions); a proxy's credentials answer its challenge, once, and a
    ///   `407` after that fails the call with a `TransportError` of kind
    ///   `TransportError.Kind.proxy` naming the proxy.
    /// - **Linux**: `FoundationNetworking` never reads `connectionProxyDictionary`, so
    ///   settings that name a proxy are refused; use the AsyncHTTPClient transport there.
    ///   (libcurl below it does read the process environment's `http_proxy`,
    ///   `HTTPS_PROXY`, `ALL_PROXY` and `NO_PROXY` on its own, for every session.)
    /// - Parameters:
    ///   - configuration: the session's configuration; `.default` unless told.
    ///   - trust: whom the session trusts, per host.
    ///   - proxy: the proxies; `nil`: the configuration's own proxy dictionary, if any.
    ///   - streamedBodyLimit: the most bytes a streamed request body may hold.
    ///   - responseBufferLimit: the most bytes of a response body that may wait unread.
    /// - Throws: `ProxyConfigurationError` naming this transport and the setting the
    ///   platform cannot apply (any proxy on Linux; SOCKS5 credentials, or a SOCKS5 proxy
    ///   for one scheme only, on Apple platforms); `TrustConfigurationError` as
    ///   ``init(configuration:trust:streamedBodyLimit:responseBufferLimit:)``.
    public init(
        configuration: URLSessionConfiguration = .default,
        trust: ServerTrust = .system,
        proxy: ProxySettings?,
        streamedBodyLimit: Int = Self.defaultStreamedBodyLimit,
        responseBufferLimit: Int = Self.defaultResponseBufferLimit
    ) throws {
        let proxies = try proxy.map { settings throws(ProxyConfigurationError) in try URLSessionProxies(settings) }
        self.owner = SessionOwner(
            configuration: configuration, trust: trust.isSystemDefault ? nil : try URLSessionTrust(trust),
            proxies: proxies)
        self.streamedBodyLimit = streamedBodyLimit
        self.responseBufferLimit = responseBufferLimit
    }

    /// Creates a transport that borrows `session`; the caller keeps ownership and
    /// decides when to invalidate it.
    ///
    /// The session's own delegate decides redirects (without one, `URLSession` follows
    /// them) and authentication challenges, and response bodies are buffered whole,
    /// since the transport cannot receive the task's events on a session it did not make;
    /// see the type's documentation. A session made by another `URLSessionTransport`
    /// behaves as that transport's own.
    ///
    /// - Important: On Linux, a borrowed session without a delegate that ends
    ///   authentication challenges (`URLSession.shared` has none) hangs on a `401` with
    ///   a `WWW-Authenticate` header until the deadline, then throws
    ///   `TransportError.Kind.timedOut`: `FoundationNetworking` neither retries nor
    ///   delivers the response. A delegate answering `urlSession(_:task:didReceive:completionHandler:)`
    ///   with `.cancelAuthenticationChallenge` makes such a request fail at once with
    ///   `URLError.cancelled` (kind `TransportError.Kind.other`) instead; to receive the
    ///   `401` itself, let the transport create its session with
    ///   ``init(configuration:streamedBodyLimit:responseBufferLimit:)``.
    /// - Parameters:
    ///   - session: the session to send requests through, for example `.shared`.
    ///   - streamedBodyLimit: the most bytes a streamed request body may hold.
    ///   - responseBufferLimit: the most bytes of a response body that may wait unread,
    ///     when the session is another transport's and bodies stream.
    public init(
        session: URLSession,
        streamedBodyLimit: Int = Self.defaultStreamedBodyLimit,
        responseBufferLimit: Int = Self.defaultResponseBufferLimit
    ) {
        self.owner = SessionOwner(borrowing: session)
        self.streamedBodyLimit = streamedBodyLimit
        self.responseBufferLimit = responseBufferLimit
    }

    /// Sends `request` through the session; see `Transport.send(_:body:deadline:)`.
    /// - Returns: the head as soon as it arrives, with a streamed body (a buffered one on
    ///   a borrowed session); see the type's documentation.
    /// - Throws: `CancellationError` when the calling task is cancelled, and
    ///   `TransportError` for failures below HTTP (see the type's documentation).
    public func send(
        _ request: HTTPRequest,
        body: MessageBody?,
        deadline: ContinuousClock.Instant?
    ) async throws -> (HTTPResponse, MessageBody?) {
        try Task.checkCancellation()
        var urlRequest = try Self.makeURLRequest(request)
        Self.assumeHTTP3(assumesHTTP3Capable, for: &urlRequest)
        let upload = try await Self.upload(body, method: request.method, limit: streamedBodyLimit)
        if let deadline {
            urlRequest.timeoutInterval = try Self.timeoutInterval(until: deadline)
        }
        guard let delegate = owner.delegate else {
            let call = DataTaskCall(session: session, request: urlRequest, body: upload, deadline: deadline)
            return Self.makeResponse(try await call.run(), method: request.method)
        }
        let call = StreamedCall(
            session: session, delegate: delegate, request: urlRequest, body: upload,
            sentBytesHandler: body?.sentBytesHandler, bufferLimit: responseBufferLimit, deadline: deadline)
        let response = try await call.run(method: request.method)
        if let failure = owner.proxies?.failure(for: response.0, to: request) { throw failure }
        return response
    }

    /// `true`: a call ends at its deadline until the response head arrives (the whole
    /// response, with a borrowed session without Strata's delegate) — a timer in
    /// Strata's scheduler cancels the `URLSessionTask` then, and the call throws
    /// `TransportError.Kind.timedOut` — and at once when the calling task is cancelled.
    /// The body's reads are the caller's to bound, as the `Networker` does.
    public var enforcesDeadline: Bool { true }

    /// What a call throws when its deadline passes before its answer came.
    static let deadlinePassed = TransportError(
        .timedOut, detail: "the deadline passed before the response head arrived")
}
