import Foundation
import HTTPTypes

/// An OAuth-style access token: the value sent as `Authorization: Bearer <value>`, and
/// when it stops being valid, if known.
public struct BearerToken: Sendable, Hashable {
    /// The token itself.
    public var value: String
    /// When the token expires, or `nil` when only the server knows.
    public var expiresAt: Date?

    /// Creates a token.
    public init(_ value: String, expiresAt: Date? = nil) {
        self.value = value
        self.expiresAt = expiresAt
    }
}

/// A ``CredentialProvider`` for a bearer token: a first token and a closure that fetches
/// a new one, the one-liner behind most ``AuthenticationMiddleware`` setups.
///
/// ```swift
/// let auth = AuthenticationMiddleware(BearerTokenProvider(BearerToken(saved.access, expiresAt: saved.expiry)) { rejected in
///     try await authAPI.renew(rejected.value)  // returns a BearerToken
/// })
/// ```
///
/// A token whose ``BearerToken/expiresAt`` has passed is renewed before it is sent.
public struct BearerTokenProvider: CredentialProvider {
    private let initial: BearerToken
    private let renew: @Sendable (BearerToken) async throws -> BearerToken
    private let now: @Sendable () -> Date

    /// Creates the provider from the first token and the closure that replaces a rejected
    /// or expired token (it receives that token).
    public init(
        _ token: BearerToken, refresh: @escaping @Sendable (_ rejected: BearerToken) async throws -> BearerToken
    ) {
        self.init(token, now: { Date() }, refresh: refresh)
    }

    /// Creates the provider with its own clock, for tests.
    init(
        _ token: BearerToken, now: @escaping @Sendable () -> Date,
        refresh: @escaping @Sendable (_ rejected: BearerToken) async throws -> BearerToken
    ) {
        self.initial = token
        self.renew = refresh
        self.now = now
    }

    /// The first token.
    public func currentCredential() async throws -> BearerToken { initial }

    /// Whether the token's expiry date has passed.
    public func isExpired(_ credential: BearerToken) -> Bool {
        credential.expiresAt.map { $0 <= now() } ?? false
    }

    /// Calls the refresh closure.
    public func refresh(_ rejected: BearerToken) async throws -> BearerToken {
        try await renew(rejected)
    }

    /// Sets `Authorization: Bearer <token>`.
    public func apply(_ credential: BearerToken, to request: inout HTTPRequest) {
        request.setBearerToken(credential.value)
    }
}
