import Foundation

/// Encodes parameters as `application/x-www-form-urlencoded` text, for URL query
/// strings and form bodies, following the conventions servers expect.
public struct URLEncodedFormEncoder: Sendable {
    /// Creates an encoder with the default options.
    public init() {}

    /// Encodes `value`, which must encode as a keyed object, into `a=1&b=2` form.
    /// - Throws: ``ParameterEncodingError`` when the value is not an object.
    public func encode(_ value: some Encodable) throws -> String {
        throw ParameterEncodingError(reason: "not implemented yet")
    }
}
