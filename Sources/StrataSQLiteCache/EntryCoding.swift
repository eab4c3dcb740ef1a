#if SQLiteCache
    import Foundation
    import Strata

    /// The compact binary forms ``SQLiteCacheStore`` writes for a response head and a
    /// secondary key, and reads back without trusting a byte of them.
    ///
    /// A JSON head cost more than the rest of a cache hit together (measured); these forms
    /// are read in one pass with no intermediate values. Lengths and counts are unsigned
    /// LEB128 numbers.
    ///
    /// - Head: a format byte (``headFormat``), the status code (two bytes, big-endian), the
    ///   reason phrase, the field count, then per field its indexing strategy (one byte), its
    ///   name and its value bytes (each a length and the bytes).
    /// - Secondary key: the count, then per field its name and value (each a length and
    ///   UTF-8 bytes), sorted by name, so that equal keys have equal bytes (the store's
    ///   `UNIQUE` constraint compares them).
    ///
    /// Decoding returns `nil` for anything that is not exactly such a form (a length past the
    /// end, bytes after the end, an invalid field name, a status code outside 0...999,
    /// invalid UTF-8, secondary-key names out of order or repeated): it never traps.
    enum EntryCoding {
        /// The version of the head form, its first byte.
        static let headFormat: UInt8 = 1

        /// The head's bytes.
        static func encode(_ head: HTTPResponse) -> [UInt8] {
            var bytes: [UInt8] = [
                headFormat, UInt8(truncatingIfNeeded: head.status.code >> 8),
                UInt8(truncatingIfNeeded: head.status.code),
            ]
            bytes.reserveCapacity(64 + head.headerFields.count * 32)
            appendLengthPrefixed(head.status.reasonPhrase.utf8, to: &bytes)
            appendNumber(head.headerFields.count, to: &bytes)
            for field in head.headerFields {
                bytes.append(indexingCode(field.indexingStrategy))
                appendLengthPrefixed(field.name.rawName.utf8, to: &bytes)
                field.withUnsafeBytesOfValue { appendLengthPrefixed($0, to: &bytes) }
            }
            return bytes
        }

        /// The head in `bytes`, or `nil` when they are not a head's form.
        static func decodeHead(_ bytes: UnsafeRawBufferPointer) -> HTTPResponse? {
            var reader = ByteReader(bytes)
            guard reader.byte() == headFormat, let high = reader.byte(), let low = reader.byte() else { return nil }
            let code = Int(high) << 8 | Int(low)
            guard code <= 999, let reason = reader.string(), let count = reader.number() else { return nil }
            var fields = HTTPFields()
            fields.reserveCapacity(min(count, bytes.count))
            for _ in 0..<count {
                guard let strategy = reader.byte().flatMap(indexingStrategy), let rawName = reader.string(),
                    let name = HTTPField.Name(rawName), let value = reader.bytes()
                else { return nil }
                var field = HTTPField(name: name, lenientValue: value)
                field.indexingStrategy = strategy
                fields.append(field)
            }
            guard reader.isAtEnd else { return nil }
            return HTTPResponse(status: HTTPResponse.Status(code: code, reasonPhrase: reason), headerFields: fields)
        }

        /// The secondary key's bytes, sorted by name.
        static func encode(_ varied: [String: String]) -> [UInt8] {
            var bytes: [UInt8] = []
            appendNumber(varied.count, to: &bytes)
            for (name, value) in varied.sorted(by: { $0.key < $1.key }) {
                appendLengthPrefixed(name.utf8, to: &bytes)
                appendLengthPrefixed(value.utf8, to: &bytes)
            }
            return bytes
        }

        /// The secondary key in `bytes`, or `nil` when they are not a secondary key's form.
        static func decodeVaried(_ bytes: UnsafeRawBufferPointer) -> [String: String]? {
            var reader = ByteReader(bytes)
            guard let count = reader.number() else { return nil }
            var varied: [String: String] = [:]
            varied.reserveCapacity(min(count, bytes.count))
            var previous: String?
            for _ in 0..<count {
                // In the order `encode` writes, so that one key has one form.
                guard let name = reader.string(), previous.map({ $0 < name }) ?? true, let value = reader.string()
                else {
                    return nil
                }
                varied[name] = value
                previous = name
            }
            return reader.isAtEnd ? varied : nil
        }

        // MARK: - Pieces

        private static func appendNumber(_ number: Int, to bytes: inout [UInt8]) {
            var rest = UInt64(max(0, number))
            while rest >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }

        private static func appendLengthPrefixed(_ part: some Collection<UInt8>, to bytes: inout [UInt8]) {
            appendNumber(part.count, to: &bytes)
            bytes.append(contentsOf: part)
        }

        private static func indexingCode(_ strategy: HTTPField.DynamicTableIndexingStrategy) -> UInt8 {
            switch strategy {
            case .prefer: 1
            case .avoid: 2
            case .disallow: 3
            default: 0
            }
        }

        private static func indexingStrategy(_ code: UInt8) -> HTTPField.DynamicTableIndexingStrategy? {
            switch code {
            case 0: .automatic
            case 1: .prefer
            case 2: .avoid
            case 3: .disallow
            default: nil
            }
        }
    }

    /// Reads the pieces of ``EntryCoding``'s forms from a buffer; every read returns `nil`
    /// rather than go past the end.
    private struct ByteReader {
        let buffer: UnsafeRawBufferPointer
        var offset = 0

        init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

        var isAtEnd: Bool { offset == buffer.count }

        mutating func byte() -> UInt8? {
            guard offset < buffer.count else { return nil }
            defer { offset += 1 }
            return buffer[offset]
        }

        /// An unsigned LEB128 number of at most 4 bytes (below 2^28: no length or count in a
        /// cache entry comes near), in its shortest form, the only one the encoder writes: a
        /// last byte of 0 after others (`80 00` for 0) is refused.
        mutating func number() -> Int? {
            var value = 0
            for shift in stride(from: 0, to: 28, by: 7) {
                guard let byte = byte() else { return nil }
                value |= Int(byte & 0x7F) << shift
                if byte < 0x80 { return shift > 0 && byte == 0 ? nil : value }
            }
            return nil
        }

        /// A length and that many bytes.
        mutating func bytes() -> UnsafeRawBufferPointer? {
            guard let length = number(), length <= buffer.count - offset else { return nil }
            defer { offset += length }
            return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + length])
        }

        /// A length and that many bytes of valid UTF-8.
        mutating func string() -> String? {
            guard let bytes = bytes() else { return nil }
            return String(validUTF8: bytes)
        }
    }
#endif
