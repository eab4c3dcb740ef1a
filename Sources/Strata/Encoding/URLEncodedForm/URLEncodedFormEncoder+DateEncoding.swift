import Foundation

extension URLEncodedFormEncoder {
    /// How `Date` values inside an `Encodable` value are written.
    ///
    /// Alamofire's `.formatted(DateFormatter)` is left out because `DateFormatter` is not
    /// `Sendable`; use ``custom(_:)`` with a `Sendable` format style instead.
    public enum DateEncoding: Sendable {
        /// The `Date`'s own `Encodable` conformance: seconds since 2001-01-01 as a
        /// double, `123.5`. The default.
        case deferredToDate
        /// Seconds since 1970-01-01 as a double, `1700000000.5`.
        case secondsSince1970
        /// Milliseconds since 1970-01-01 as a double, `1700000000500.0`.
        case millisecondsSince1970
        /// An ISO 8601 (RFC 3339) string in UTC, `2024-05-06T12:53:20Z`.
        case iso8601
        /// The string returned by the closure; an error it throws ends the encoding.
        case custom(@Sendable (Date) throws -> String)

        /// The matching ``JSONValueEncoder`` strategy.
        var jsonValueStrategy: JSONValueEncoder.DateEncodingStrategy {
            switch self {
            case .deferredToDate: .deferredToDate
            // Pinned to Alamofire's text, `String(Double)`, whatever number case the
            // tree would otherwise hold.
            case .secondsSince1970: .custom { date in .string("\(date.timeIntervalSince1970)") }
            case .millisecondsSince1970: .custom { date in .string("\(date.timeIntervalSince1970 * 1000)") }
            case .iso8601: .iso8601
            case .custom(let closure): .custom { date in .string(try closure(date)) }
            }
        }
    }
}
