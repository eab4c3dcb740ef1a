extension Result {
    /// The success value, or `nil` for a failure: the Endpoint + Networker + Result pattern's
    /// `guard let photo = result.value else { … }`.
    public var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The error, or `nil` for a success.
    public var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
