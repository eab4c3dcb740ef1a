import HTTPTypes

extension HTTPFields {
    /// The fields that carry credentials: `Authorization`, `Cookie` and
    /// `Proxy-Authorization`, which a redirect to another origin withholds.
    package static let credentialNames: [HTTPField.Name] = [.authorization, .cookie, .proxyAuthorization]

    /// The fields without the ones that carry credentials.
    package func removingCredentials() -> HTTPFields {
        var fields = self
        for name in Self.credentialNames { fields[name] = nil }
        return fields
    }
}
