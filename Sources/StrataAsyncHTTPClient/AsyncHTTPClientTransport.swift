import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix

/// A `Transport` over AsyncHTTPClient: the recommended transport on Linux and servers,
/// and the one `Networker()` uses there.
///
/// - Warning: AsyncHTTPClient 1.37 stops the process on a response whose status code is
///   under 100 (`HTTP/1.1 000 Zero\r\n\r\nok`, or `HTTP/1.1 099 Low\r\n\r\n` and the
///   connection closing): it ignores such a head as an informational one, SwiftNIO's
///   decoder passes the body or the end of the response on, and a precondition in
///   AsyncHTTPClient's request state machine fails. It is the only crash Strata's
///   hostile-response corpus finds on this transport (0.75 % of 100,000 cases); no
///   transport can catch it.
///   And with calls running at once, bytes a server sends past the end of a response
///   (after a `204`, past `Content-Length`) can reach the next call AsyncHTTPClient hands
///   that connection to: it fails (and is sent again, see ``send(_:body:deadline:)``) or,
///   rarely, takes them for its answer.
///
/// Request bodies are sent as they are (in-memory bodies in one buffer, streamed bodies
/// chunk by chunk with `Content-Length` when their length is known, chunked otherwise),
/// and response bodies are streamed straight from the connection without buffering.
///
/// ## Who shuts the client down
///
/// An `HTTPClient` owns a connection pool and must be shut down exactly once, before
/// it is released (AsyncHTTPClient traps in debug builds when a client is deinitialised
/// while still running).
///
/// - ``init(configuration:)`` creates a client and **owns** it. Call ``shutdown()`` when
///   you are done with the transport to close its connections at a moment you choose;
///   a transport that is simply dropped shuts its client down once its last copy, and
///   the last response body it is streaming, are released.
/// - ``init(client:)`` **borrows** a client you created: you shut it down yourself, after
///   the last request; ``shutdown()`` leaves it running.
///
/// The transport is a `Sendable` struct. `HTTPClient` is a reference type that tracks its
/// own state, so every copy of a transport shares one client: shutting down through any
/// copy shuts down that one client, and calling ``shutdown()`` again (through the same
/// copy or another one) is a no-op rather than an error.
///
/// ```swift
/// let transport = AsyncHTTPClientTransport()
/// let (response, body) = try await transport.send(request, body: nil, deadline: .now + .seconds(10))
/// let data = try await body?.collect(upTo: 1 << 20)
/// // … more requests …
/// try await transport.shutdown()  // when the app (or service) stops
/// ```
public struct AsyncHTTPClientTransport: Transport {
    /// The client requests go through. Owned or borrowed, see ``isOwningClient``.
    public let client: HTTPClient
    /// Whether this transport created ``client`` and ``shutdown()`` shuts it down.
    public var isOwningClient: Bool { owner != nil }
    /// The client this transport created, shut down when the last copy is released.
    private let owner: OwnedClient?
    /// Whom `https` requests trust, per host; `nil`: the client's own TLS configuration.
    let trust: TrustConfigurations?
    /// The proxies requests go through, with a client each; `nil`: every request goes
    /// through ``client``.
    let proxies: ProxyClients?

    /// The event loop group of every client a transport creates: SwiftNIO's POSIX sockets
    /// with swift-nio-ssl, on every platform.
    ///
    /// AsyncHTTPClient's own default on Apple platforms is Network.framework
    /// (`NIOTSEventLoopGroup`), where Strata's trust settings would not apply as they do
    /// elsewhere (extra roots ignored, a client identity refused, TLS failures without a
    /// reason), connections would wait for connectivity until the connect timeout, and
    /// WebSockets could not open. With this group, TLS, its failures and WebSockets behave
    /// on iOS and macOS exactly as on Linux, where Strata's tests run.
    public static var eventLoopGroup: MultiThreadedEventLoopGroup { .singleton }

    /// Creates a transport that owns a new client on the shared event loop group
    /// (``eventLoopGroup``).
    ///
    /// Call ``shutdown()`` once you are done with the transport, or drop it: the client
    /// shuts down when the last copy of the transport is released.
    /// - Parameter configuration: the client's configuration; the default,
    ///   `HTTPClient.Configuration/strataDefault`, decompresses responses and leaves
    ///   redirects to the `Networker`.
    public init(configuration: HTTPClient.Configuration = .strataDefault) {
        self.init(
            owning: HTTPClient(eventLoopGroup: Self.eventLoopGroup, configuration: configuration),
            trust: nil)
    }

    /// Creates a transport that owns a new client and applies `trust` to every `https`
    /// request (AsyncHTTPClient's per-request TLS configuration; connections are pooled
    /// per configuration).
    ///
    /// Roots (in addition to or instead of the system's), a client identity (PEM or
    /// PKCS #12) and a minimum version are applied, per host. Pins are refused:
    /// AsyncHTTPClient exposes no hook to see the server's chain
    /// (swift-server/async-http-client#285); trusting only a CA you ship
    /// (`TrustPolicy.Roots.only(_:)`) anchors the connection to it instead.
    /// - Parameters:
    ///   - configuration: the client's configuration; its `tlsConfiguration`, if any, is
    ///     the base each policy starts from.
    ///   - trust: whom `https` requests trust, per host.
    /// - Throws: `TrustConfigurationError` naming this transport and the setting, for
    ///   pins and for a certificate or key swift-nio-ssl cannot read.
    public init(configuration: HTTPClient.Configuration = .strataDefault, trust: ServerTrust)
        throws(TrustConfigurationError)
    {
        let trust = try TrustConfigurations(trust, base: configuration.tlsConfiguration)
        self.init(
            owning: HTTPClient(eventLoopGroup: Self.eventLoopGroup, configuration: configuration),
            trust: trust)
    }

    /// Creates a transport that owns its clients and sends requests through the proxies of
    /// `proxy` (and `trust` applied to every `https` request, as
    /// ``init(configuration:trust:)`` does).
    ///
    /// AsyncHTTPClient takes one proxy per client, so the transport makes a client per
    /// proxy, and one for the requests that go direct (hosts of `ProxySettings.bypass`,
    /// schemes without a proxy). An HTTP proxy carries every request in a `CONNECT` tunnel,
    /// `http` ones too, with `Proxy-Authorization: Basic` when it has credentials, which
    /// only the proxy sees; a SOCKS5 proxy is asked to connect to the origin by name (the
    /// proxy resolves it). A proxy's failures are `TransportError`s whose detail names the
    /// proxy: `TransportError.Kind.proxy` for a `407` (credentials refused or missing), a
    /// refused tunnel or a failed SOCKS handshake.
    ///
    /// WebSockets do not go through a proxy yet: opening one to a host the settings send
    /// through a proxy throws `ProxyConfigurationError` (setting `webSocket`).
    /// - Parameters:
    ///   - configuration: the configuration of every client; it must not set a `proxy` of its own.
    ///   - trust: whom `https` requests trust, per host.
    ///   - proxy: the proxies; `nil`: every request goes direct (so that
    ///     `proxy: try .fromEnvironment()` reads well).
    /// - Throws: `ProxyConfigurationError` for SOCKS5 credentials (AsyncHTTPClient's SOCKS
    ///   client has no username/password method) or a configuration with a proxy of its
    ///   own; `TrustConfigurationError` as ``init(configuration:trust:)``.
    public init(
        configuration: HTTPClient.Configuration = .strataDefault, trust: ServerTrust = .system, proxy: ProxySettings?
    ) throws {
        let trust = trust.isSystemDefault ? nil : try TrustConfigurations(trust, base: configuration.tlsConfiguration)
        let proxies = try proxy.map { settings throws(ProxyConfigurationError) in
            try ProxyClients(settings, configuration: configuration)
        }
        self.init(
            owning: HTTPClient(eventLoopGroup: Self.eventLoopGroup, configuration: configuration),
            trust: trust, proxies: proxies)
    }

    /// Creates a transport that borrows `client` and applies `trust` to every `https`
    /// request; see ``init(configuration:trust:)``.
    /// - Parameters:
    ///   - client: a running client, shut down by the caller after the last request.
    ///   - trust: whom `https` requests trust, per host; each policy starts from
    ///     `TLSConfiguration.makeClientConfiguration()` (AsyncHTTPClient does not show a
    ///     client's configuration), not from the client's own TLS configuration.
    /// - Throws: `TrustConfigurationError`, as ``init(configuration:trust:)``.
    public init(client: HTTPClient, trust: ServerTrust) throws(TrustConfigurationError) {
        self.client = client
        self.owner = nil
        self.trust = try TrustConfigurations(trust, base: nil)
        self.proxies = nil
    }

    private init(owning client: HTTPClient, trust: TrustConfigurations?, proxies: ProxyClients? = nil) {
        self.client = client
        self.owner = OwnedClient(client)
        self.trust = trust
        self.proxies = proxies
    }

    /// Creates a transport that borrows `client`; the caller keeps it and shuts it down.
    ///
    /// The client is taken as it is, with its event loop group. On Apple platforms, a
    /// client made with `HTTPClient.defaultEventLoopGroup` (or `HTTPClient.shared`) runs
    /// over Network.framework: there its TLS configuration is translated by
    /// AsyncHTTPClient (extra trust roots are not applied, and it stops the process on a
    /// client certificate chain), a refused connection waits for connectivity until the
    /// connect timeout, and TLS failures carry no `TLSFailure` reason. WebSockets open on
    /// ``eventLoopGroup`` when the client's group cannot make SwiftNIO sockets. Make the
    /// client on ``eventLoopGroup`` to behave as Strata's own.
    ///
    /// Configure the client yourself (for example with
    /// `HTTPClient.Configuration/strataDefault`); `HTTPClient.Configuration()` does not
    /// decompress responses, and it follows redirects itself, which bypasses the
    /// `Networker`'s `RedirectPolicy` (set `redirectConfiguration = .disallow`).
    /// - Parameter client: a running client, shut down by the caller after the last request.
    public init(client: HTTPClient) {
        self.client = client
        self.owner = nil
        self.trust = nil
        self.proxies = nil
    }

    /// Shuts down the client (and the proxies' clients) when this transport owns it; does
    /// nothing for a borrowed one.
    ///
    /// Idempotent: a client that is already shut down is left as it is.
    /// - Throws: AsyncHTTPClient's error when the shutdown fails.
    public func shutdown() async throws {
        guard isOwningClient else { return }
        try await Self.shutdown(client)
        try await proxies?.shutdown()
    }

    /// Shuts `client` down, unless it already is.
    static func shutdown(_ client: HTTPClient) async throws {
        do {
            try await client.shutdown()
        } catch let error as HTTPClientError where error == .alreadyShutdown {
            return
        }
    }

    /// `true`: AsyncHTTPClient ends the request at the deadline until the response head
    /// arrives (its own timer on the event loop, from queueing and connecting on), and
    /// stops it when the task is cancelled. The body's reads are the caller's to bound.
    public var enforcesDeadline: Bool { true }

    /// Sends `request` and returns the response head and its streamed body.
    ///
    /// The body is `nil` for responses that cannot have one
    /// (`HTTPResponse.cannotHaveBody(respondingTo:)`). AsyncHTTPClient applies
    /// `deadline` until the response head arrives (with a timer on its event loop that is
    /// released with the request); the body is read within the caller's deadline, which
    /// the `Networker` enforces by cancelling the reading task.
    /// A request that fails because its pooled connection had closed before the request
    /// was written (nothing reached the server: none of a streamed body was read), or, for
    /// an idempotent method, because bytes an earlier response left on the connection
    /// arrived as a response nobody asked for, is sent again on another connection (up to
    /// three times), when its body can be read again.
    /// - Throws: `CancellationError` when the task is cancelled; `TransportError` with
    ///   kind `TransportError.Kind.timedOut` once `deadline` passes before the head,
    ///   `TransportError.Kind.invalidRequest` for a request AsyncHTTPClient
    ///   rejects (no scheme or authority, bad URL or header), and other kinds as classified
    ///   by `TransportError.Kind`.
    public func send(
        _ request: HTTPRequest,
        body: MessageBody?,
        deadline: ContinuousClock.Instant?
    ) async throws -> (HTTPResponse, MessageBody?) {
        try Task.checkCancellation()
        if Deadline.hasPassed(deadline) { throw TransportError(.timedOut) }
        let route = proxies?.route(for: request)
        var sends = 1
        let response: HTTPClientResponse
        while true {
            // Whether AsyncHTTPClient read any of a streamed body: then the head went out,
            // and bytes of the body may have reached the server. (Bytes in memory go with
            // the head in one write, as they are.)
            let bodyRead = Locked(false)
            let watchedBody = body.map { body in
                body.bufferedData != nil
                    ? body : body.watched { (chunk: { _ in bodyRead.withLock { $0 = true } }, end: { _ in }) }
            }
            do {
                response = try await execute(
                    request, body: watchedBody, deadline: deadline, on: route?.owner.client ?? client)
                break
            } catch {
                guard sends < Self.maximumSends, !bodyRead.withLock({ $0 }),
                    Self.wasStaleConnection(error, for: request, body: body)
                else {
                    let classified = TransportErrorClassifier.classify(error, deadline: deadline)
                    guard let route, let transportError = classified as? TransportError else { throw classified }
                    throw transportError.through(route.server, to: request.authority ?? "")
                }
                sends += 1
            }
        }
        AttemptReport.current?.protocolVersion = response.version.otelName
        return try ResponseConversion.convert(
            response, requestMethod: request.method, deadline: deadline, keepingAlive: route?.owner ?? owner)
    }

    /// How many times a request goes out when the pool keeps handing out spoilt
    /// connections (see ``wasStaleConnection(_:for:body:)``); the deadline bounds them all.
    private static let maximumSends = 4

    /// Whether `error` says the pool handed out a connection spoilt by an earlier response,
    /// so that `request` goes again on another connection:
    /// - the connection had closed before the request was written (for example after a
    ///   response with more bytes than its `Content-Length`): nothing was sent;
    /// - bytes an earlier response left behind (after a `204`, or past its
    ///   `Content-Length`) arrived as a response no request was waiting for
    ///   (`unsolicitedResponse`): AsyncHTTPClient can lease a connection to the next request
    ///   before it has read the rest of what arrived with the previous response, and the
    ///   error then falls on the new request. Not this request's answer, so it is sent
    ///   again when its method is idempotent.
    /// In both cases only when the body can be read again.
    private static func wasStaleConnection(_ error: any Error, for request: HTTPRequest, body: MessageBody?) -> Bool {
        guard body?.isReplayable != false else { return false }
        switch error {
        case let error as ChannelError: return error == .ioOnClosedChannel
        case let error as NIOHTTPDecoderError:
            return error == .unsolicitedResponse && HTTPRequest.Method.idempotent.contains(request.method)
        default: return false
        }
    }

    private func execute(
        _ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?, on client: HTTPClient
    ) async throws -> HTTPClientResponse {
        var clientRequest = try HTTPClientRequest(request, body: body)
        if let trust, request.scheme == "https", let authority = request.authority {
            clientRequest.tlsConfiguration = trust.configuration(forAuthority: authority)
        }
        return try await client.execute(clientRequest, deadline: NIODeadline(deadline))
    }
}
