import Foundation
import StrataTestSupport

/// One response a hostile server sends: the bytes after the request head, then how the
/// connection ends. Made from its ``seed`` alone (``init(seed:)``), so that a failing case
/// is named by one number and comes back the same anywhere.
struct HostileCase: Sendable, Hashable, CustomStringConvertible {
    /// How the server ends the connection after ``bytes``.
    enum Ending: String, Sendable, Codable, CaseIterable {
        /// Closes it (FIN).
        case fin
        /// Resets it (RST, `SO_LINGER` 0).
        case reset
        /// Keeps it open and sends nothing more, reading what the client sends.
        case silence
    }

    /// The number the case is generated from (or, for ``regressions``, a fixed name).
    let seed: UInt64
    /// What the server writes after reading the request head.
    let bytes: [UInt8]
    /// How the connection ends after ``bytes``.
    let ending: Ending

    init(seed: UInt64, bytes: [UInt8], ending: Ending) {
        self.seed = seed
        self.bytes = bytes
        self.ending = ending
    }

    /// The case generated from `seed` (see ``HostileMutations``), or the regression input
    /// named `seed`.
    init(seed: UInt64) {
        if let regression = Self.regressions.first(where: { $0.seed == seed }) {
            self = regression
            return
        }
        var generator = SplitMix64(seed: seed)
        let (bytes, ending) = HostileMutations.response(using: &generator)
        self.init(seed: seed, bytes: bytes, ending: ending)
    }

    /// The seeds of a run: the ``regressions`` first, then `count` seeds drawn from `base`.
    static func seeds(count: Int, base: UInt64) -> [UInt64] {
        var generator = SplitMix64(seed: base)
        return regressions.map(\.seed) + (0..<count).map { _ in generator.next() }
    }

    /// Inputs kept as they are: the responses that once crashed or misled a transport.
    /// Their seeds are small numbers, which ``seeds(count:base:)`` practically never draws.
    static let regressions: [HostileCase] = [
        // Half a head, then FIN: FoundationNetworking's URLSession stops the process.
        HostileCase(seed: 1, text: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Len", ending: .fin),
        HostileCase(seed: 2, text: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Len", ending: .reset),
        // A head and nothing of its 10-byte body, then FIN.
        HostileCase(seed: 3, text: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", ending: .fin),
        // A chunk size that overflows 64 bits.
        HostileCase(
            seed: 4,
            text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\nab\r\n0\r\n\r\n",
            ending: .fin),
        // Two different lengths.
        HostileCase(
            seed: 5, text: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 4\r\n\r\nabcd", ending: .silence),
        // Nothing at all.
        HostileCase(seed: 6, text: "", ending: .fin),
        // A status code under 100, then a body: AsyncHTTPClient 1.37 takes the head for an
        // informational one and ignores it, SwiftNIO's decoder passes the body on, and
        // AsyncHTTPClient stops the process (found by the long run).
        HostileCase(seed: 7, text: "HTTP/1.1 099 Low\r\nContent-Length: 2\r\n\r\nok", ending: .fin),
        HostileCase(seed: 8, text: "HTTP/1.1 000 Zero\r\n\r\nok", ending: .silence),
        // A status code under 100 and no body, then FIN: AsyncHTTPClient 1.37 stops the
        // process on the end of a response whose head it ignored (found by the long run).
        HostileCase(seed: 10, text: "HTTP/1.1 099 Low\r\n\r\n", ending: .fin),
        // A `Content-Length` of Int64.max: FoundationNetworking traps in a curl callback
        // (found by the long run).
        HostileCase(
            seed: 9, text: "HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775807\r\n\r\nok", ending: .silence),
    ]

    private init(seed: UInt64, text: String, ending: Ending) {
        self.init(seed: seed, bytes: Array(text.utf8), ending: ending)
    }

    /// `seed 1234 · fin · 57 bytes "HTTP/1.1 200 OK\r\n…"`, with bytes outside printable
    /// ASCII escaped, the first 160 of them.
    var description: String {
        "seed \(seed) · \(ending) · \(bytes.count) bytes \"\(Self.escaped(bytes.prefix(160)))\(bytes.count > 160 ? "…" : "")\""
    }

    /// `bytes` with CR, LF, tab, quote, backslash and bytes outside printable ASCII escaped.
    static func escaped(_ bytes: some Sequence<UInt8>) -> String {
        var text = ""
        for byte in bytes {
            switch byte {
            case 0x0D: text += "\\r"
            case 0x0A: text += "\\n"
            case 0x09: text += "\\t"
            case 0x22: text += "\\\""
            case 0x5C: text += "\\\\"
            case 0x20...0x7E: text.unicodeScalars.append(UnicodeScalar(byte))
            default: text += String(format: "\\x%02X", byte)
            }
        }
        return text
    }
}
