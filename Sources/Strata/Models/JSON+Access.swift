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
