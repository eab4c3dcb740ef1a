import HTTPTypes

/// What makes two requests one for ``CoalescingMiddleware``: the method and the target URI
/// as a cache normalises them (``CacheKey``), and the values of the header fields that
/// change the response or say whose it is (``CoalescingMiddleware/identityFields``).
struct RequestIdentity: Hashable, Sendable {
    let target: CacheKey
    /// The values of the identity fields, in their order (`nil` for a field not sent).
    let fields: [String?]

    /// The key of `request`; `nil` for a request that is not for an `http(s)` URI.
    init?(_ request: HTTPRequest, fields names: [HTTPField.Name]) {
        guard let target = CacheKey(request) else { return nil }
        self.target = target
        fields = names.map { name in
            let values = request.headerFields[values: name]
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
    }
}
