import Foundation
import HTTPTypes

/// A user and password for HTTP Basic authentication (RFC 7617), sent as
/// `Authorization: Basic <base64(user:password)>`.
///
/// ```swift
/// let networker = Networker(transport: transport, middleware: [HeadersMiddleware.basicAuthentication(user: "ada", password: secret)])
/// let report = try await networker.send(reportEndpoint.basicAuthentication(user: "ada", password: secret))
/// ```
///
/// Both are encoded as UTF-8 after Unicode normalization form C, as the scheme's
/// `charset="UTF-8"` asks (RFC 7617 §2.1), so an `é` typed either way sends the same bytes.
/// The field is a credential like a bearer token: withheld from a redirect to another
/// origin, and redacted by ``LoggingMiddleware`` and in recordings.
public struct BasicCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The user-id.
    public let user: String
    /// The password.
    public let password: String

    /// Creates credentials.
    /// - Throws: ``BasicCredentialsError`` when `user` holds a colon (the server would read
    ///   the user up to it) or either holds a control character (RFC 7617 §2).
    public init(user: String, password: String) throws(BasicCredentialsError) {
        if user.contains(":") { throw .colonInUser }
        if Self.hasControlCharacter(user) || Self.hasControlCharacter(password) { throw .controlCharacter }
        self.user = user
        self.password = password
    }

    /// The `Authorization` field's value: `Basic ` and the base64 of `user:password` in
    /// UTF-8, both in normalization form C.
    public var authorization: String {
        let pair = user.precomposedStringWithCanonicalMapping + ":" + password.precomposedStringWithCanonicalMapping
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }

    /// The user, and the password redacted, so that printing the value leaks nothing.
    public var description: String { "BasicCredentials(user: \(user.debugDescription), password: <redacted>)" }

    private static func hasControlCharacter(_ string: String) -> Bool {
        string.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}

/// Basic credentials that cannot be sent (RFC 7617 §2).
public enum BasicCredentialsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The user holds a colon: the server reads the user up to the first one.
    case colonInUser
    /// The user or the password holds a control character (U+0000 to U+001F or U+007F).
    case controlCharacter

    /// A one-line description for logs.
    public var description: String {
        switch self {
        case .colonInUser: "a Basic authentication user cannot contain a colon (RFC 7617 §2)"
        case .controlCharacter:
            "a Basic authentication user or password cannot contain a control character (RFC 7617 §2)"
        }
    }
}

extension HeadersMiddleware {
    /// Sets `Authorization: Basic …` for `user` and `password` on every request,
    /// replacing any `Authorization` field.
    ///
    /// Credentials that cannot be sent (``BasicCredentialsError``) do not trap: every
    /// request then fails with ``StrataError/Kind/middleware`` naming `HeadersMiddleware`,
    /// with the ``BasicCredentialsError`` as ``StrataError/underlying``.
    public static func basicAuthentication(user: String, password: String) -> HeadersMiddleware {
        let credentials = Result { () throws(BasicCredentialsError) in
            try BasicCredentials(user: user, password: password)
        }
        return basicAuthentication { try credentials.get() }
    }

    /// Sets `Authorization: Basic …` from `credentials`, read for every request (from a
    /// keychain, say); `nil` sends the request without the field.
    public static func basicAuthentication(
        _ credentials: @escaping @Sendable () async throws -> BasicCredentials?
    ) -> HeadersMiddleware {
        HeadersMiddleware(policy: .replace) { _ in
            guard let credentials = try await credentials() else { return [:] }
            return [.authorization: credentials.authorization]
        }
    }
}

extension Endpoint {
    /// Sets `Authorization: Basic …` for `user` and `password` on this call's request,
    /// replacing any `Authorization` field. Credentials that cannot be sent do not trap:
    /// sending fails with ``StrataError/Kind/encoding`` and a ``BasicCredentialsError``.
    public func basicAuthentication(user: String, password: String) -> Endpoint {
        var copy = self
        do {
            copy.request.headers[.authorization] = try BasicCredentials(user: user, password: password).authorization
        } catch {
            copy.request.keepUnsendable(error)
        }
        return copy
    }
}

extension CredentialProvider where Credential == BasicCredentials {
    /// Sets `Authorization: Basic …`, for a provider whose ``CredentialProvider/refresh(_:)``
    /// asks the user again after a `401`.
    public func apply(_ credential: BasicCredentials, to request: inout HTTPRequest) {
        request.headerFields[.authorization] = credential.authorization
    }
}
