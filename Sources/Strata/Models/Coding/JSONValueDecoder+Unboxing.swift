import Foundation

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
                throw DecodingError.dataCorrupted(.init(
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
            throw DecodingError.dataCorrupted(.init(
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
            return .valueNotFound(type, .init(
                codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead."))
        }
        return .typeMismatch(type, .init(
            codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(value.kindName) instead."))
    }
}
