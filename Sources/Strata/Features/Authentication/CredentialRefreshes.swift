/// How many credential refreshes a call started.
package enum CredentialRefreshesKey: CallValueKey {
    package typealias Value = Int
}

extension EndpointResponse {
    /// How many credential refreshes this call started (a call that waited for another's
    /// refresh started none); `nil` for none.
    public var credentialRefreshes: Int? { records[CredentialRefreshesKey.self] }
}

extension StrataError {
    /// How many credential refreshes this call started; `nil` for none.
    public var credentialRefreshes: Int? { records[CredentialRefreshesKey.self] }
}

extension FinishedCall {
    /// How many credential refreshes the call started; `nil` for none.
    public var credentialRefreshes: Int? { records[CredentialRefreshesKey.self] }
}
