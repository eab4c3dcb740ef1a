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

extension JSON: ExpressibleByNilLiteral {
    /// Creates `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSON: ExpressibleByBooleanLiteral {
    /// Creates a boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSON: ExpressibleByIntegerLiteral {
    /// Creates an integer value.
    public init(integerLiteral value: Int) { self = .integer(value) }
}

extension JSON: ExpressibleByFloatLiteral {
    /// Creates a floating point value.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSON: ExpressibleByStringLiteral {
    /// Creates a string value.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSON: ExpressibleByArrayLiteral {
    /// Creates an array value.
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
}

extension JSON: ExpressibleByDictionaryLiteral {
    /// Creates an object value. When a key repeats, the last value wins.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// `"Photo \(id)"` builds a string value.
extension JSON: ExpressibleByStringInterpolation {}

extension JSON {
    /// The value stored under `key` when this is an object; otherwise `nil`.
    ///
    /// Setting a value on a non-object turns it into an object holding that one key.
    public subscript(key: String) -> JSON? {
        get {
            guard case .object(let object) = self else { return nil }
            return object[key]
        }
        set {
            var object: [String: JSON]
            if case .object(let existing) = self { object = existing } else { object = [:] }
            object[key] = newValue
            self = .object(object)
        }
    }

    /// The element at `index` when this is an array and the index is in range; otherwise `nil`.
    public subscript(index: Int) -> JSON? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, when this is an integer or a double with no fractional part that fits in `Int`.
    public var intValue: Int? {
        switch self {
        case .integer(let value): return value
        case .double(let value): return Int(exactly: value)
        default: return nil
        }
    }

    /// The number as a `Double`, when this is a number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The boolean, when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The key–value pairs, when this is an object.
    public var objectValue: [String: JSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// `true` when this is `null`.
    public var isNull: Bool { self == .null }
}

extension JSON: Codable {
    /// Decodes any JSON value. Whole numbers that fit in `Int` become ``integer(_:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSON].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "The value is not valid JSON.")
        }
    }

    /// Encodes the value as the JSON it represents.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSON {
    /// A short name for the kind of value, used in error messages.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
