import Foundation

/// Decodes `Decodable` values straight from a ``JSON`` tree, with no bytes in between.
///
/// Used for the default ``RawDecodable/from(raw:)``. Its errors are ordinary
/// `DecodingError`s with the full coding path, as `JSONDecoder` throws them.
public struct JSONValueDecoder: Sendable {
    /// How `Date` values are read.
    public enum DateDecodingStrategy: Sendable {
        /// The `Date`'s own `Decodable` conformance (seconds since 2001-01-01).
        case deferredToDate
        /// Seconds since 1970-01-01.
        case secondsSince1970
        /// Milliseconds since 1970-01-01.
        case millisecondsSince1970
        /// An ISO 8601 string, `2024-05-06T07:08:09Z`.
        case iso8601
        /// A value computed by the closure.
        case custom(@Sendable (JSON) throws -> Date)
    }

    /// How `Date` values are read; `.deferredToDate` by default, like `JSONDecoder`.
    public var dateDecodingStrategy: DateDecodingStrategy = .deferredToDate

    /// Creates a decoder with the default strategies.
    public init() {}

    /// Decodes a `T` from `json`.
    /// - Throws: `DecodingError` naming the coding path of the value that did not fit.
    public func decode<T: Decodable>(_ type: T.Type, from json: JSON) throws -> T {
        try unbox(json, as: type, at: [])
    }
}
