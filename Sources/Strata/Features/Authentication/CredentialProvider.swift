import HTTPTypes

/// Where an ``AuthenticationMiddleware`` gets its credential, how it renews one the
/// server rejected, and how it puts one on a request.
///
/// The middleware asks ``currentCredential()`` for the first request and keeps what it
/// gets; from then on it only calls ``refresh(_:)``, one call at a time, however many
/// requests need a new credential together. Only ``currentCredential()`` and
/// ``refresh(_:)`` have to be written when the credential is a bearer token `String`:
///
/// ```swift
/// struct TokenStore: CredentialProvider {
///     func currentCredential() async throws -> String { try await keychain.accessToken() }
///     func refresh(_ rejected: String) async throws -> String { try await authAPI.renew(rejected) }
/// }
/// ```
///
/// For a token with an expiry date and a refresh closure, ``BearerTokenProvider`` is ready-made.
public protocol CredentialProvider: Sendable {
    /// What the provider hands out: a token, a key pair, a signed cookie.
    associatedtype Credential: Sendable

    /// The credential to start with; asked for the first request (again after it failed).
    func currentCredential() async throws -> Credential

    /// Whether `credential` is known to be expired, so that it is renewed before it is
    /// sent. The default says no: the server's `401 Unauthorized` decides.
    func isExpired(_ credential: Credential) -> Bool

    /// A new credential in place of `rejected`, the one a server refused or that expired.
    /// An error fails every request waiting for the new credential.
    func refresh(_ rejected: Credential) async throws -> Credential

    /// Puts `credential` on `request`, replacing any credential it carries.
    func apply(_ credential: Credential, to request: inout HTTPRequest)
}

extension CredentialProvider {
    /// Never expired: a credential is renewed after the server rejects it.
    public func isExpired(_ credential: Credential) -> Bool { false }
}

extension CredentialProvider where Credential == String {
    /// Sets `Authorization: Bearer <credential>`.
    public func apply(_ credential: String, to request: inout HTTPRequest) {
        request.setBearerToken(credential)
    }
}

extension HTTPRequest {
    /// Sets `Authorization: Bearer <token>`, replacing any `Authorization` field.
    mutating func setBearerToken(_ token: String) {
        headerFields[.authorization] = "Bearer \(token)"
    }
}
