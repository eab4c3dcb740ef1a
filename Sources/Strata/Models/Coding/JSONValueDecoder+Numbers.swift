import Foundation

/// Number conversions, as `JSONDecoder` makes them: exact or not at all.
extension JSONValueDecoder {
    /// An integer of any width, from an integer that fits or a double with no fractional part.
    func unboxInteger<I: FixedWidthInteger>(_ value: JSON, as type: I.Type, at codingPath: [any CodingKey]) throws -> I {
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
