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

/// Turning one ``JSON`` value into a Swift value, with the errors `JSONDecoder` throws.
extension JSONValueDecoder {
    /// Decodes any `Decodable`, applying the strategies to `Date` and reading `Data`,
    /// `URL` and `Decimal` the way `JSONDecoder` does. ``JSON`` is returned as it is.
    func unbox<T: Decodable>(_ value: JSON, as type: T.Type, at codingPath: [any CodingKey]) throws -> T {
        if type == JSON.self, let json = value as? T { return json }
        if type == Date.self, let date = try unboxDate(value, at: codingPath) as? T { return date }
        if type == Data.self, let data = try unboxData(value, at: codingPath) as? T { return data }
        if type == URL.self, let url = try unboxURL(value, at: codingPath) as? T { return url }
        if type == Decimal.self, let decimal = try unboxDecimal(value, at: codingPath) as? T { return decimal }
        return try T(from: JSONValueDecoding(value: value, options: self, codingPath: codingPath))
    }

    func unboxBool(_ value: JSON, at codingPath: [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value else { throw Self.mismatch(Bool.self, value, at: codingPath) }
        return bool
    }

    func unboxString(_ value: JSON, at codingPath: [any CodingKey]) throws -> String {
        guard case .string(let string) = value else { throw Self.mismatch(String.self, value, at: codingPath) }
        return string
    }

    private func unboxDate(_ value: JSON, at codingPath: [any CodingKey]) throws -> Date {
        switch dateDecodingStrategy {
        case .deferredToDate:
            return try Date(from: JSONValueDecoding(value: value, options: self, codingPath: codingPath))
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try unboxDouble(value, at: codingPath))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try unboxDouble(value, at: codingPath) / 1000)
        case .iso8601:
            let string = try unboxString(value, at: codingPath)
            guard let date = try? Date(string, strategy: .iso8601) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: codingPath, debugDescription: "Expected date string to be ISO8601-formatted."))
            }
            return date
        case .custom(let closure):
            return try closure(value)
        }
    }

    private func unboxData(_ value: JSON, at codingPath: [any CodingKey]) throws -> Data {
        guard case .string(let string) = value else { throw Self.mismatch(Data.self, value, at: codingPath) }
        guard let data = Data(base64Encoded: string) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath, debugDescription: "Encountered Data is not valid Base64."))
        }
        return data
    }

    private func unboxURL(_ value: JSON, at codingPath: [any CodingKey]) throws -> URL {
        guard case .string(let string) = value else { throw Self.mismatch(URL.self, value, at: codingPath) }
        guard let url = URL(string: string) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Invalid URL string."))
        }
        return url
    }

    /// The error for `value` not being a `type`: `valueNotFound` for `null`, `typeMismatch` otherwise.
    static func mismatch(_ type: Any.Type, _ value: JSON, at codingPath: [any CodingKey]) -> DecodingError {
        if value == .null {
            return .valueNotFound(
                type,
                .init(
                    codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead."))
        }
        return .typeMismatch(
            type,
            .init(
                codingPath: codingPath,
                debugDescription: "Expected to decode \(type) but found \(value.kindName) instead."))
    }
}

/// Number conversions, as `JSONDecoder` makes them: exact or not at all.
extension JSONValueDecoder {
    /// An integer of any width, from an integer that fits or a double with no fractional part.
    func unboxInteger<I: FixedWidthInteger>(_ value: JSON, as type: I.Type, at codingPath: [any CodingKey]) throws -> I
    {
        switch value {
        case .integer(let integer):
            guard let result = I(exactly: integer) else { throw Self.doesNotFit(integer, type, at: codingPath) }
            return result
        case .double(let double):
            guard let result = I(exactly: double) else { throw Self.doesNotFit(double, type, at: codingPath) }
            return result
        default:
            throw Self.mismatch(type, value, at: codingPath)
        }
    }

    func unboxDouble(_ value: JSON, at codingPath: [any CodingKey]) throws -> Double {
        switch value {
        case .integer(let integer): return Double(integer)
        case .double(let double): return double
        default: throw Self.mismatch(Double.self, value, at: codingPath)
        }
    }

    /// A float, from any number within `Float`'s range.
    func unboxFloat(_ value: JSON, at codingPath: [any CodingKey]) throws -> Float {
        switch value {
        case .integer(let integer):
            return Float(integer)
        case .double(let double):
            guard !double.isFinite || abs(double) <= Double(Float.greatestFiniteMagnitude) else {
                throw Self.doesNotFit(double, Float.self, at: codingPath)
            }
            return Float(double)
        default:
            throw Self.mismatch(Float.self, value, at: codingPath)
        }
    }

    /// A decimal, from its number's decimal spelling.
    func unboxDecimal(_ value: JSON, at codingPath: [any CodingKey]) throws -> Decimal {
        switch value {
        case .integer(let integer): return Decimal(integer)
        case .double(let double): return Decimal(string: double.description) ?? Decimal(double)
        default: throw Self.mismatch(Decimal.self, value, at: codingPath)
        }
    }

    private static func doesNotFit(_ number: Any, _ type: Any.Type, at codingPath: [any CodingKey]) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: "Number \(number) does not fit in \(type)."))
    }
}

/// The `Decoder` behind ``JSONValueDecoder``: reads one ``JSON`` value.
///
/// It is its own single-value container.
struct JSONValueDecoding: Decoder {
    let value: JSON
    let options: JSONValueDecoder
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch value {
        case .object(let object):
            return KeyedDecodingContainer(
                JSONValueKeyedDecodingContainer<Key>(object: object, options: options, codingPath: codingPath))
        case .null:
            throw DecodingError.valueNotFound(
                [String: Any].self,
                .init(
                    codingPath: codingPath,
                    debugDescription: "Cannot get keyed decoding container -- found null value instead."))
        default:
            throw JSONValueDecoder.mismatch([String: Any].self, value, at: codingPath)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let array):
            return JSONValueUnkeyedDecodingContainer(array: array, options: options, codingPath: codingPath)
        case .null:
            throw DecodingError.valueNotFound(
                [Any].self,
                .init(
                    codingPath: codingPath,
                    debugDescription: "Cannot get unkeyed decoding container -- found null value instead."))
        default:
            throw JSONValueDecoder.mismatch([Any].self, value, at: codingPath)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }
}

/// Reading the decoder's own value, for `singleValueContainer()`.
extension JSONValueDecoding: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try options.unboxBool(value, at: codingPath) }
    func decode(_ type: String.Type) throws -> String { try options.unboxString(value, at: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try options.unboxDouble(value, at: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try options.unboxFloat(value, at: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try options.unboxInteger(value, as: type, at: codingPath) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try options.unboxInteger(value, as: type, at: codingPath) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try options.unboxInteger(value, as: type, at: codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try options.unbox(value, as: type, at: codingPath) }
}
