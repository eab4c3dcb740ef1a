/// The one range of bytes a `Range: bytes=…` field asks for (RFC 9110 §14.1.2): `first-last`,
/// `first-` or `-suffixLength`. A field with several ranges, another unit or a range
/// that does not parse reads as `nil`.
package enum ByteRange: Hashable, Sendable {
    /// From `first` through `last` (to the end when `nil`).
    case from(Int64, through: Int64?)
    /// The last `length` bytes.
    case suffix(Int64)

    /// The range `field` asks for, or `nil` (see the type's documentation).
    package init?(_ field: String?) {
        guard let field else { return nil }
        let trimmed = field.trimmingOWS()
        guard trimmed.count > 6, trimmed.prefix(6).lowercased() == "bytes=" else { return nil }
        let spec = trimmed.dropFirst(6).trimmingOWS()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingOWS()
        let last = spec[spec.index(after: dash)...].trimmingOWS()
        guard first.allSatisfy(\.isASCIIDigit), last.allSatisfy(\.isASCIIDigit) else { return nil }
        if first.isEmpty {
            guard let length = Int64(last) else { return nil }
            self = .suffix(length)
        } else {
            guard let start = Int64(first) else { return nil }
            if last.isEmpty {
                self = .from(start, through: nil)
            } else {
                guard let end = Int64(last), end >= start else { return nil }
                self = .from(start, through: end)
            }
        }
    }

    /// The bytes of a representation of `length` bytes this range selects, or `nil`
    /// when it selects none (a `416`).
    package func resolved(length: Int64) -> ClosedRange<Int64>? {
        switch self {
        case .from(let first, let last):
            guard first < length else { return nil }
            return first...min(last ?? length - 1, length - 1)
        case .suffix(let suffix):
            guard suffix > 0, length > 0 else { return nil }
            return max(0, length - suffix)...(length - 1)
        }
    }
}

/// A `Content-Range` field in bytes (RFC 9110 §14.4): the range a `206` carries and the
/// representation's complete length (`bytes 0-99/1000`, `*` when unknown), or only the
/// length, in a `416` (`bytes */1000`).
package struct ContentRange: Hashable, Sendable, CustomStringConvertible {
    /// The bytes carried; `nil` for an unsatisfied range.
    package var range: ClosedRange<Int64>?
    /// The complete length, when known.
    package var completeLength: Int64?

    /// A content range of `range` out of `completeLength` bytes.
    package init(_ range: ClosedRange<Int64>?, of completeLength: Int64?) {
        self.range = range
        self.completeLength = completeLength
    }

    /// The value of `field`, or `nil` when it is not a valid byte content range.
    package init?(_ field: String?) {
        guard let field, field.hasPrefix("bytes ") else { return nil }
        let parts = field.dropFirst(6).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[1] == "*" {
            completeLength = nil
        } else {
            guard parts[1].allSatisfy(\.isASCIIDigit), let length = Int64(parts[1]) else { return nil }
            completeLength = length
        }
        if parts[0] == "*" {
            guard completeLength != nil else { return nil }
            range = nil
            return
        }
        guard let dash = parts[0].firstIndex(of: "-") else { return nil }
        let first = parts[0][..<dash]
        let last = parts[0][parts[0].index(after: dash)...]
        guard first.allSatisfy(\.isASCIIDigit), last.allSatisfy(\.isASCIIDigit), let start = Int64(first),
            let end = Int64(last), start <= end, completeLength.map({ end < $0 }) ?? true
        else { return nil }
        range = start...end
    }

    /// `bytes 0-99/1000`, `bytes */1000`.
    package var description: String {
        let length = completeLength.map(String.init) ?? "*"
        guard let range else { return "bytes */\(length)" }
        return "bytes \(range.lowerBound)-\(range.upperBound)/\(length)"
    }
}

extension Character {
    /// `0` to `9`.
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
