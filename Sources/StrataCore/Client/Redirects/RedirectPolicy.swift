import HTTPTypes

/// How a ``Networker`` follows redirects: the one policy for every transport.
///
/// Strata follows redirects itself (``RedirectMiddleware``) rather than leaving them to
/// the transport, so the rules below hold whichever transport sends the request:
///
/// - `301`, `302` and `303` are followed with `GET` and no body (a `HEAD` stays `HEAD`);
///   `307` and `308` keep the method and resend the body, which must be replayable
///   (``MessageBody/isReplayable``). A redirect without a `Location` header, and other
///   `3xx` statuses (`300`, `304`, …), are returned as they are.
/// - At most ``maxRedirects`` hops; a hop to a URL already visited with the same method
///   is a loop. Both fail with ``StrataError/Kind/redirect``.
/// - Once a hop leaves the origin of the request (its scheme, host or port changes), the
///   ``credentialFields`` are removed from that hop and every later one, including any a
///   middleware adds on the way, unless ``forwardsCredentialsAcrossOrigins`` is set.
/// - A hop from `https` to `http` is refused unless ``allowsInsecureRedirects`` is set;
///   schemes other than `http` and `https` are always refused.
public struct RedirectPolicy: Sendable, Hashable {
    /// The header fields that carry credentials: `Authorization`, `Cookie` and
    /// `Proxy-Authorization`.
    public static let credentialFields: [HTTPField.Name] = HTTPFields.credentialNames

    /// The most redirects one call follows; 10 by default.
    public var maxRedirects: Int
    /// Whether a redirect from `https` to `http` is followed; `false` by default.
    public var allowsInsecureRedirects: Bool
    /// Whether ``credentialFields`` go along to another origin; `false` by default.
    public var forwardsCredentialsAcrossOrigins: Bool

    /// Creates a policy; the defaults are the safe ones.
    public init(
        maxRedirects: Int = 10, allowsInsecureRedirects: Bool = false, forwardsCredentialsAcrossOrigins: Bool = false
    ) {
        self.maxRedirects = maxRedirects
        self.allowsInsecureRedirects = allowsInsecureRedirects
        self.forwardsCredentialsAcrossOrigins = forwardsCredentialsAcrossOrigins
    }
}

/// One redirect being followed, as middleware sees it in ``MiddlewareContext/redirect``.
public struct RedirectHop: Sendable, Hashable {
    /// 1 for the first redirect of a call, 2 for the next, and so on.
    public let number: Int
    /// The status of the redirect response.
    public let status: HTTPResponse.Status
    /// The URL that answered with the redirect.
    public let from: String
    /// Whether this hop or an earlier one left the origin of the call's first request.
    public let hasLeftOrigin: Bool
    /// Whether the ``RedirectPolicy/credentialFields`` are removed from this hop's
    /// request before it reaches the transport.
    public let withholdsCredentials: Bool

    /// Creates a hop description.
    public init(number: Int, status: HTTPResponse.Status, from: String, hasLeftOrigin: Bool, withholdsCredentials: Bool)
    {
        self.number = number
        self.status = status
        self.from = from
        self.hasLeftOrigin = hasLeftOrigin
        self.withholdsCredentials = withholdsCredentials
    }
}
