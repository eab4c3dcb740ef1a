import Foundation
import HTTPTypes

/// Follows redirects under a ``RedirectPolicy``, the same way on every transport.
///
/// A ``Networker`` installs one as its outermost step unless ``Networker/Configuration/redirects``
/// is `nil` or its middleware already has one, so each hop passes through every other
/// middleware (a logging step logs each hop) and carries a ``MiddlewareContext/redirect``
/// describing it. Place it yourself to choose what sits outside it.
///
/// The redirect response's body is read (at most 64 KiB, so its connection can be
/// reused) and dropped before the next hop.
public struct RedirectMiddleware: Middleware {
    /// The rules it follows.
    public let policy: RedirectPolicy

    /// Creates the step.
    public init(policy: RedirectPolicy = RedirectPolicy()) {
        self.policy = policy
    }

    /// Sends `request` and follows the redirects it gets; see ``RedirectPolicy``.
    /// - Throws: ``StrataError`` of kind ``StrataError/Kind/redirect`` with a
    ///   ``RedirectError`` when a redirect breaks the policy, and whatever `next` throws.
    public func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        var (response, responseBody) = try await next(request, body, context)
        guard Self.location(of: response) != nil else { return (response, responseBody) }
        // Only a call that gets a redirect pays for tracking the hops.
        var hop = RedirectHopState(request: request, body: body)
        var context = context
        while let location = Self.location(of: response) {
            let number = (context.redirect?.number ?? 0) + 1
            let from = hop.request.absoluteURLString
            do {
                try hop.follow(response.status, to: location, redirects: number - 1, policy: policy)
            } catch let error as RedirectError {
                throw StrataError(.redirect, underlying: error, request: hop.request, response: response)
            }
            await responseBody?.discard(until: context.deadline)
            if hop.withholdsCredentials, context.redirect?.withholdsCredentials != true {
                // Whatever steps further in add (a bearer token), the credentials stay here.
                context.adjustBeforeTransport { $0.headerFields = $0.headerFields.removingCredentials() }
            }
            context.redirect = RedirectHop(
                number: number, status: response.status, from: from, hasLeftOrigin: hop.hasLeftOrigin,
                withholdsCredentials: hop.withholdsCredentials)
            context.logger.debug(
                "redirect",
                metadata: [
                    "strata.redirect.hop": "\(number)", "strata.redirect.status": "\(response.status.code)",
                    "strata.redirect.to": "\(hop.request.absoluteURLString)",
                ])
            (response, responseBody) = try await next(hop.request, hop.body, context)
        }
        return (response, responseBody)
    }

    /// `true`: the redirect response's body is discarded within the deadline, and the
    /// step waits for nothing else but `next`.
    public var boundsItsWaits: Bool { true }

    /// The `Location` of a redirect Strata follows (`301`, `302`, `303`, `307`, `308`).
    static func location(of response: HTTPResponse) -> String? {
        guard [301, 302, 303, 307, 308].contains(response.status.code) else { return nil }
        return response.headerFields[.location]
    }
}

/// The request of the current hop and what the redirects so far have seen.
struct RedirectHopState {
    private(set) var request: HTTPRequest
    private(set) var body: MessageBody?
    /// Whether a hop left the origin of the first request.
    private(set) var hasLeftOrigin = false
    /// Whether the hops' requests go without their credentials: they left the origin and
    /// the policy does not forward credentials across origins.
    private(set) var withholdsCredentials = false
    private let origin: Origin?
    /// `METHOD url` of every request sent so far, to find loops.
    private var visited: Set<String>

    init(request: HTTPRequest, body: MessageBody?) {
        self.request = request
        self.body = body
        self.origin = Origin(request)
        self.visited = [Self.key(request)]
    }

    /// Turns the request into the next hop's, answering `status` with `location`.
    /// - Throws: ``RedirectError`` when the policy forbids the hop.
    mutating func follow(_ status: HTTPResponse.Status, to location: String, redirects: Int, policy: RedirectPolicy)
        throws
    {
        func fail(_ kind: RedirectError.Kind) -> RedirectError {
            RedirectError(kind, location: location, redirects: redirects)
        }
        guard redirects < policy.maxRedirects else { throw fail(.tooManyRedirects) }
        guard let current = request.url,
            let target = URL(string: location, relativeTo: current)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
            target.host?.isEmpty == false
        else { throw fail(.invalidLocation) }
        if scheme == "http", request.scheme?.lowercased() == "https", !policy.allowsInsecureRedirects {
            throw fail(.insecureRedirect)
        }
        var next = request
        next.url = target
        if [301, 302, 303].contains(status.code), request.method != .head {
            next.method = .get
            for name in [HTTPField.Name.contentType, .contentLength, .contentEncoding, .transferEncoding] {
                next.headerFields[name] = nil
            }
            body = nil
        } else if let body, !body.isReplayable {
            throw fail(.bodyNotReplayable)
        }
        guard visited.insert(Self.key(next)).inserted else { throw fail(.loop) }
        hasLeftOrigin = hasLeftOrigin || Origin(next) != origin
        withholdsCredentials = hasLeftOrigin && !policy.forwardsCredentialsAcrossOrigins
        if withholdsCredentials {
            next.headerFields = next.headerFields.removingCredentials()
        }
        request = next
    }

    private static func key(_ request: HTTPRequest) -> String {
        "\(request.method.rawValue) \(request.absoluteURLString)"
    }

    /// Scheme, host and port, compared case-insensitively with default ports filled in.
    private struct Origin: Hashable {
        let scheme: String
        let host: String
        let port: Int?

        init?(_ request: HTTPRequest) {
            guard let url = request.url, let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased()
            else { return nil }
            self.scheme = scheme
            self.host = host
            self.port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
        }
    }
}
