/// A JSON value: the default raw representation of Strata's model layer.
///
/// `JSON` is a `Sendable`, `Hashable`, `Codable` value, so it can cross actors,
/// be compared in tests and travel as request parameters. Integers and floating
/// point numbers are kept apart so that identifiers survive a round trip exactly.
///
/// ```swift
/// let user: JSON = ["name": "Ann", "age": 31, "tags": ["admin"], "manager": nil]
/// let name = user["name"]?.stringValue   // "Ann"
/// let firstTag = user["tags"]?[0]        // "admin"
/// ```
public enum JSON: Sendable, Hashable {
    /// The JSON `null` literal.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without a fractional part that fits in `Int`.
    case integer(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An ordered list of values.
    case array([JSON])
    /// A set of key–value pairs.
    case object([String: JSON])
}

/// The seed documents' spelling of ``JSON``.
public typealias Json = JSON
