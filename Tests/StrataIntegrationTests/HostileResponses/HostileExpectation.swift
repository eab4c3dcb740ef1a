import Foundation

/// What a client may make of a ``HostileCase``, judged by a strict reading of RFC 9112.
///
/// A response inside the strict subset (CRLF line ends, an `HTTP/1.0` or `HTTP/1.1`
/// status line with a `2xx` status other than `204` and `205`, token field names,
/// printable ASCII values, no obs-fold, no content coding, one `Content-Length` of digits
/// or `Transfer-Encoding: chunked` alone, a head under 8 KiB) has one right answer: its
/// body, when the framing completes, or a failure when it cannot. Outside that subset
/// clients differ in what they tolerate, and any typed result is right, provided a
/// success only carries bytes the server sent, in order.
enum HostileExpectation: Equatable, CustomStringConvertible {
    /// A success with exactly this status and body (or, after a reset, a transport error).
    case exact(status: Int, body: [UInt8])
    /// The framing cannot complete (the head or the body is cut short, or a
    /// close-delimited body ends with a reset or never ends): no success.
    case failure
    /// Any typed result; a success's body must be a subsequence of the bytes sent.
    case any

    var description: String {
        switch self {
        case .exact(let status, let body): "success \(status) with \(body.count) bytes"
        case .failure: "a failure"
        case .any: "any typed result"
        }
    }

    /// The expectation for `hostile`.
    init(_ hostile: HostileCase) {
        let bytes = hostile.bytes
        guard let headEnd = Self.find([0x0D, 0x0A, 0x0D, 0x0A], in: bytes[...], from: 0).map({ $0 + 4 }) else {
            // No head end a lenient parser could take (an LF, maybe a CR, then an LF) either.
            let lenientEnd = bytes.indices.contains { index in
                bytes[index] == 0x0A
                    && (bytes.dropFirst(index + 1).first == 0x0A
                        || bytes.dropFirst(index + 1).starts(with: [0x0D, 0x0A]))
            }
            self = lenientEnd ? .any : .failure
            return
        }
        guard headEnd <= 8 * 1024, let head = StrictHead(bytes[..<(headEnd - 2)]) else {
            self = .any
            return
        }
        let rest = bytes[headEnd...]
        switch head.framing {
        case .none:
            self = .any
        case .length(let length):
            self = rest.count >= length ? .exact(status: head.status, body: Array(rest.prefix(length))) : .failure
        case .chunked:
            self = Self.dechunked(rest).map { $0.map { .exact(status: head.status, body: $0) } ?? .failure } ?? .any
        case .close:
            self = hostile.ending == .fin ? .exact(status: head.status, body: Array(rest)) : .failure
        }
    }

    /// What is wrong with `outcome` for a case of this expectation, or `nil`.
    func violation(by observation: FaultObservation, for hostile: HostileCase) -> String? {
        let outcome = observation.outcome
        let body = [UInt8](outcome.body ?? Data())
        switch self {
        case .exact(let status, let expected):
            if outcome.kind == nil {
                return outcome.status == status && body == expected ? nil : "expected \(self), got \(observation)"
            }
            return hostile.ending == .reset && outcome.kind == .transport ? nil : "expected \(self), got \(observation)"
        case .failure:
            return outcome.kind == nil ? "a success from a response whose framing cannot complete: \(observation)" : nil
        case .any:
            guard outcome.kind == nil else { return nil }
            return Self.isSubsequence(body, of: hostile.bytes)
                ? nil : "a success with bytes the server never sent: \(observation)"
        }
    }

    /// The body of a chunked message: `nil` when its framing is outside the strict
    /// subset, `.some(nil)` when it is cut short.
    private static func dechunked(_ bytes: ArraySlice<UInt8>) -> [UInt8]?? {
        var body: [UInt8] = []
        var index = bytes.startIndex
        while true {
            guard let lineEnd = find([0x0D, 0x0A], in: bytes, from: index) else { return .some(nil) }
            let sizeLine = bytes[index..<lineEnd]
            guard (1...16).contains(sizeLine.count), sizeLine.allSatisfy({ isHexDigit($0) }),
                let size = Int(String(decoding: sizeLine, as: UTF8.self), radix: 16)
            else { return nil }
            index = lineEnd + 2
            if size == 0 { break }
            guard bytes.endIndex - index - 2 >= size else { return .some(nil) }
            body += bytes[index..<(index + size)]
            guard bytes[index + size] == 0x0D, bytes[index + size + 1] == 0x0A else { return nil }
            index += size + 2
        }
        // Trailer fields, then an empty line.
        while true {
            guard let lineEnd = find([0x0D, 0x0A], in: bytes, from: index) else { return .some(nil) }
            if lineEnd == index { return body }
            guard StrictHead.field(bytes[index..<lineEnd]) != nil else { return nil }
            index = lineEnd + 2
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// The index of the first `needle` in `bytes` at or after `start`.
    static func find(_ needle: [UInt8], in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.endIndex {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// Whether every byte of `body` appears in `bytes`, in the same order.
    static func isSubsequence(_ body: [UInt8], of bytes: [UInt8]) -> Bool {
        var iterator = bytes.makeIterator()
        return body.allSatisfy { byte in
            while let next = iterator.next() {
                if next == byte { return true }
            }
            return false
        }
    }
}

/// A response head in the strict subset of ``HostileExpectation``.
private struct StrictHead {
    enum Framing {
        /// A status or field outside the subset.
        case none
        case length(Int)
        case chunked
        case close
    }

    let status: Int
    let framing: Framing

    /// The head `bytes` (status line and fields, each ending in CRLF), or `nil` when it is
    /// outside the subset.
    init?(_ bytes: ArraySlice<UInt8>) {
        var lines: [ArraySlice<UInt8>] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard let end = HostileExpectation.find([0x0D, 0x0A], in: bytes, from: index) else { return nil }
            lines.append(bytes[index..<end])
            index = end + 2
        }
        guard let statusLine = lines.first.map({ String(decoding: $0, as: UTF8.self) }),
            statusLine.utf8.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x09 })
        else { return nil }
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0", parts[1].count == 3,
            parts[1].allSatisfy(\.isASCII), let status = Int(parts[1]), parts[1].allSatisfy(\.isNumber)
        else { return nil }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let field = Self.field(line) else { return nil }
            fields.append(field)
        }
        self.status = status
        let lengths = fields.filter { $0.name == "content-length" }.map(\.value)
        let codings = fields.filter { $0.name == "transfer-encoding" }.map { $0.value.lowercased() }
        if !(200...299).contains(status) || status == 204 || status == 205
            || fields.contains(where: { $0.name == "content-encoding" })
        {
            framing = .none
        } else if !codings.isEmpty {
            framing = codings == ["chunked"] && lengths.isEmpty && parts[0] == "HTTP/1.1" ? .chunked : .none
        } else if lengths.isEmpty {
            framing = .close
        } else if lengths.count == 1, (1...18).contains(lengths[0].count), lengths[0].allSatisfy(\.isASCIIDigit) {
            framing = .length(Int(lengths[0])!)
        } else {
            framing = .none
        }
    }

    /// A field line `name: value` with a token name and a value of printable ASCII and
    /// tabs, its name lowercased and its value trimmed; `nil` otherwise.
    static func field(_ line: ArraySlice<UInt8>) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex,
            line[..<colon].allSatisfy(isTokenByte),
            line[(colon + 1)...].allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x09 })
        else { return nil }
        let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return (String(decoding: line[..<colon], as: UTF8.self).lowercased(), value)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
