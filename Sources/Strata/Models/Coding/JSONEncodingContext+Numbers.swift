import Foundation

extension JSONEncodingContext {
    /// An integer of any width as ``JSON/integer(_:)``.
    /// - Throws: `EncodingError.invalidValue` when `value` does not fit in `Int`.
    func integer<I: BinaryInteger>(_ value: I, at codingPath: [any CodingKey]) throws -> JSON {
        guard let integer = Int(exactly: value) else {
            throw EncodingError.invalidValue(value, .init(
                codingPath: codingPath, debugDescription: "Number \(value) does not fit in Int."))
        }
        return .integer(integer)
    }

    /// A finite double as ``JSON/double(_:)``.
    /// - Throws: `EncodingError.invalidValue` for infinities and NaN, as `JSONEncoder` does.
    func double(_ value: Double, at codingPath: [any CodingKey]) throws -> JSON {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(
                codingPath: codingPath, debugDescription: "Unable to encode Double.\(value) directly in JSON."))
        }
        return .double(value)
    }

    /// A finite float as ``JSON/double(_:)``, through its shortest decimal spelling so
    /// that `Float(0.1)` becomes `0.1` (what `JSONEncoder` writes), not `0.10000000149011612`.
    func float(_ value: Float, at codingPath: [any CodingKey]) throws -> JSON {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(
                codingPath: codingPath, debugDescription: "Unable to encode Float.\(value) directly in JSON."))
        }
        return .double(Double(value.description) ?? Double(value))
    }

    /// A decimal as ``JSON/double(_:)``, the nearest double to its decimal spelling.
    func decimal(_ value: Decimal, at codingPath: [any CodingKey]) throws -> JSON {
        guard let double = Double(value.description), double.isFinite else {
            throw EncodingError.invalidValue(value, .init(
                codingPath: codingPath, debugDescription: "Unable to encode Decimal \(value) directly in JSON."))
        }
        return .double(double)
    }
}
