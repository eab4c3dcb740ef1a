import StrataTestSupport

/// How ``HostileCase`` makes a response from a seed: one in ten is random bytes; the rest
/// take a valid response (a length-framed, chunked or close-delimited `200`, a `404`, a
/// `204`, a `100` before a `200`) and change it one to three times at random positions.
enum HostileMutations {
    /// A response and how its connection ends.
    static func response(using generator: inout SplitMix64) -> ([UInt8], HostileCase.Ending) {
        let ending: HostileCase.Ending =
            switch Int.random(in: 0..<20, using: &generator) {
            case 0..<9: .fin
            case 9..<15: .reset
            default: .silence
            }
        if Int.random(in: 0..<10, using: &generator) == 0 {
            return (randomBytes(count: Int.random(in: 1...2048, using: &generator), using: &generator), ending)
        }
        var bytes = Array(bases.randomElement(using: &generator)!.utf8)
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            mutate(&bytes, using: &generator)
        }
        return (bytes, ending)
    }

    /// The valid responses mutations start from.
    static let bases = [
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 26\r\n\r\n{\"id\":1,\"name\":\"Ann\",\"a\":1}",
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
        "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nthe body runs to the end of the connection",
        "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 9\r\n\r\nnot found",
        "HTTP/1.1 204 No Content\r\n\r\n",
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
    ]

    /// Header lines a mutation inserts after the status line: bad and conflicting framing,
    /// encodings, NUL, obs-fold, malformed lines, a 100 KB value and 10,000 fields.
    static let headerLines: [String] = [
        "Content-Length: 99999999999999999999999",
        "Content-Length: 9223372036854775807",
        "Content-Length: -1",
        "Content-Length: 0",
        "Content-Length: 5",
        "Content-Length: 1000000",
        "Content-Length: 1, 2",
        "Content-Length: +5",
        "Content-Length:  26 ",
        "Content-Length: 0x1A",
        "Transfer-Encoding: chunked",
        "Transfer-Encoding: gzip, chunked",
        "Transfer-Encoding: chunked, gzip",
        "Transfer-Encoding: identity",
        "Transfer-Encoding: xchunked",
        "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked",
        "Content-Encoding: gzip",
        "Content-Encoding: deflate",
        "Content-Encoding: br",
        "X-Nul: a\u{0}b",
        "X-Nul\u{0}Name: a",
        "X-Fold: a\r\n  folded",
        " Leading: space",
        "NoColon",
        "Bad Name: x",
        "Name : x",
        ": empty name",
        "X-Empty:",
        "X-Big: " + String(repeating: "a", count: 100_000),
        (0..<10_000).map { "X-H\($0): v" }.joined(separator: "\r\n"),
        "Connection: close",
        "Connection: keep-alive",
        "Content-Type: text/event-stream",
        "Location: /elsewhere",
        "Retry-After: -5",
        "X-Latin: caf\u{E9}",
    ]

    /// Status lines a mutation puts in place of the first line.
    static let statusLines: [String] = [
        "HTTP/0.9 200 OK", "HTTP/2.0 200 OK", "HTTP/1.2 200 OK", "HTTP/9.9 200 OK", "HTTP/1.1 000 Zero",
        "HTTP/1.1 099 Low", "HTTP/1.1 600 High", "HTTP/1.1 999 Top", "HTTP/1.1 1000 Long", "HTTP/1.1 20 Short",
        "HTTP/1.1 abc Letters", "HTTP/1.1 200", "HTTP/1.1  200 OK", "ICY 200 OK", "http/1.1 200 OK",
        "HTTP/1.1 200 OK\u{0}", "HTTP/1.1 101 Switching Protocols", "HTTP/1.1 304 Not Modified",
        "HTTP/1.1 -200 Negative", "HTTP/1.1 200 \u{7F}\u{1}", "HTTP/ 200 OK", "HTTP/1.1",
    ]

    /// Chunk-size lines a mutation puts in place of a chunked body's first one.
    static let chunkSizes: [String] = [
        "FFFFFFFFFFFFFFFFFFFF", "7FFFFFFFFFFFFFFF", "-1", "5;ext=1", "5 ;ext", "0x5", " 5", "5 ", "G", "",
        "100000",
    ]

    private static func mutate(_ bytes: inout [UInt8], using generator: inout SplitMix64) {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0:  // truncate anywhere
            bytes.removeLast(Int.random(in: 0...bytes.count, using: &generator))
        case 1:  // flip one to four bytes
            guard !bytes.isEmpty else { return }
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: bytes.indices, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
        case 2:  // remove a CR or an LF
            let breaks = bytes.indices.filter { bytes[$0] == 0x0D || bytes[$0] == 0x0A }
            if let index = breaks.randomElement(using: &generator) { bytes.remove(at: index) }
        case 3:  // double a CRLF
            let breaks = crlfPositions(in: bytes)
            if let index = breaks.randomElement(using: &generator) {
                bytes.insert(contentsOf: [0x0D, 0x0A], at: index)
            }
        case 4, 5:  // insert a header line after the status line
            let line = headerLines.randomElement(using: &generator)!
            let index = crlfPositions(in: bytes).first.map { $0 + 2 } ?? bytes.count
            bytes.insert(contentsOf: Array((line + "\r\n").utf8), at: index)
        case 6:  // replace the status line
            let end = crlfPositions(in: bytes).first ?? bytes.count
            bytes.replaceSubrange(0..<end, with: Array(statusLines.randomElement(using: &generator)!.utf8))
        case 7:  // replace the first chunk size
            let head = headEnd(of: bytes)
            guard let head, let sizeEnd = crlfPositions(in: bytes).first(where: { $0 >= head }) else { return }
            bytes.replaceSubrange(head..<sizeEnd, with: Array(chunkSizes.randomElement(using: &generator)!.utf8))
        case 8:  // append random bytes
            bytes += randomBytes(count: Int.random(in: 1...64, using: &generator), using: &generator)
        default:  // insert random bytes anywhere
            let index = Int.random(in: 0...bytes.count, using: &generator)
            bytes.insert(
                contentsOf: randomBytes(count: Int.random(in: 1...16, using: &generator), using: &generator), at: index)
        }
    }

    private static func randomBytes(count: Int, using generator: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The index of each CR that an LF follows.
    private static func crlfPositions(in bytes: [UInt8]) -> [Int] {
        bytes.indices.dropLast().filter { bytes[$0] == 0x0D && bytes[$0 + 1] == 0x0A }
    }

    /// The index just after the first CRLF CRLF.
    private static func headEnd(of bytes: [UInt8]) -> Int? {
        crlfPositions(in: bytes).first { $0 + 3 < bytes.count && bytes[$0 + 2] == 0x0D && bytes[$0 + 3] == 0x0A }
            .map { $0 + 4 }
    }
}
