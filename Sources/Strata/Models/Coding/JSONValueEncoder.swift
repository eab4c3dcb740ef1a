import Foundation

/// Encodes `Encodable` values straight into a ``JSON`` tree, with no bytes in between.
///
/// Used for the default ``RawEncodable/toRaw()`` and by ``URLEncodedFormEncoder``.
public struct JSONValueEncoder: Sendable {
    /// How `Date` values are written.
    public enum DateEncodingStrategy: Sendable {
        /// The `Date`'s own `Encodable` conformance (seconds since 2001-01-01, a double).
        case deferredToDate
        /// Seconds since 1970-01-01, a double.
        case secondsSince1970
        /// Milliseconds since 1970-01-01, a double.
        case millisecondsSince1970
        /// An ISO 8601 string, `2024-05-06T07:08:09Z`.
        case iso8601
        /// A value computed by the closure.
        case custom(@Sendable (Date) throws -> JSON)
    }

    /// How `Data` values are written.
    public enum DataEncodingStrategy: Sendable {
        /// The `Data`'s own `Encodable` conformance (an array of bytes).
        case deferredToData
        /// A Base64 string.
        case base64
        /// A value computed by the closure.
        case custom(@Sendable (Data) throws -> JSON)
    }

    /// How `Date` values are written; `.deferredToDate` by default, like `JSONEncoder`.
    public var dateEncodingStrategy: DateEncodingStrategy = .deferredToDate
    /// How `Data` values are written; `.base64` by default, like `JSONEncoder`.
    public var dataEncodingStrategy: DataEncodingStrategy = .base64
    /// When `true`, optional properties that are `nil` are written as `null` instead of
    /// being left out (synthesised `Codable` uses `encodeIfPresent`, which drops them).
    public var encodesNilOptionals = false

    /// Creates an encoder with the default strategies.
    public init() {}

    /// Encodes `value` into a ``JSON`` tree.
    /// - Throws: `EncodingError` when the value cannot be represented (for example a
    ///   non-finite double, or a container with no value).
    public func encode<T: Encodable>(_ value: T) throws -> JSON {
        let context = JSONEncodingContext(options: self)
        guard let slot = try context.slot(for: value, at: []) else {
            throw EncodingError.invalidValue(value, .init(
                codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        if let failure = context.failure {
            throw failure
        }
        return slot.resolved
    }
}
