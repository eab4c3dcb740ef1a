import NIOCore
import Strata

/// Writes what a ``FaultRoute`` calls for on one connection.
struct FaultResponder {
    /// The connection's outbound side; each write waits while the client does not read.
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    /// How many 64 KiB buffers a streaming route hands over per write: 1 MiB.
    private static let buffersPerWrite = 16
    /// 64 KiB of `x`, the filler of streamed bodies.
    private static let filler = ByteBuffer(repeating: UInt8(ascii: "x"), count: 64 * 1024)
    /// ``filler`` as one chunk of a chunked body.
    private static let fillerChunk: ByteBuffer = {
        var chunk = ByteBuffer(string: String(filler.readableBytes, radix: 16) + "\r\n")
        chunk.writeImmutableBuffer(filler)
        chunk.writeString("\r\n")
        return chunk
    }()

    /// Answers with `route`'s behaviour (a `404` when `route` is `nil`) and says what to
    /// do with the connection next.
    /// - Throws: when a write fails, typically because the client has gone.
    func respond(to route: FaultRoute?) async throws -> ConnectionFate {
        guard let route else {
            try await outbound.write(FaultResponses.complete(status: 404, body: FaultResponses.notFoundBody))
            return .keepAlive
        }
        switch route {
        case .ok:
            try await outbound.write(
                FaultResponses.complete(
                    status: 200, [("Content-Type", "text/plain")], body: FaultResponses.okBody))
            return .keepAlive
        case .neverAnswer:
            return .holdOpen
        case .closeBeforeHead:
            return .close
        case .resetBeforeHead:
            return .reset
        case .resetMidBody:
            try await writePartialBody()
            // Give the client time to read the head and the first bytes before the RST,
            // which would make its kernel drop whatever it had not read yet.
            try await Deadline.sleep(for: .milliseconds(100))
            return .reset
        case .lengthTooLong:
            try await writePartialBody()
            return .close
        case .trickle:
            try await trickle()
            return .keepAlive
        case .lengthTooShort:
            var response = FaultResponses.head(
                status: 200, [("Content-Length", "\(FaultResponses.declaredShortBody.utf8.count)")])
            response.writeString(FaultResponses.declaredShortBody + FaultResponses.smuggledResponse)
            try await outbound.write(response)
            return .keepAlive
        case .gzip:
            try await writeGzip(try GzipBodies.intact)
            return .keepAlive
        case .gzipTruncated:
            try await writeGzip(try GzipBodies.truncated)
            return .keepAlive
        case .gzipBomb:
            try await writeGzip(try GzipBodies.bomb)
            return .keepAlive
        case .hugeLength:
            try await streamHugeBody()
            return .keepAlive
        case .endlessChunked:
            try await outbound.write(FaultResponses.head(status: 200, [("Transfer-Encoding", "chunked")]))
            let chunks = Array(repeating: Self.fillerChunk, count: Self.buffersPerWrite)
            while true { try await outbound.write(contentsOf: chunks) }
        case .garbage:
            try await outbound.write(ByteBuffer(bytes: FaultResponses.garbage))
            return .holdOpen
        case .headerNUL:
            try await writeOK(withField: ("X-Fault", "before\u{0}after"))
            return .keepAlive
        case .headerControl:
            try await writeOK(withField: ("X-Fault", "before\u{7}after"))
            return .keepAlive
        case .headerNameControl:
            try await writeOK(withField: ("X-Fa\u{1}ult", "value"))
            return .keepAlive
        case .redirect(let status, let to, let withBody):
            try await writeRedirect(status: status, to: to, withBody: withBody)
            return .keepAlive
        case .loop:
            try await writeRedirect(status: 302, to: "/loop", withBody: false)
            return .keepAlive
        case .chain(let count):
            try await writeRedirect(status: 302, to: count > 0 ? "/chain/\(count - 1)" : "/ok", withBody: false)
            return .keepAlive
        case .unavailable:
            try await writeUnavailable(statusLine: "HTTP/1.1 503 Service Unavailable")
            return .keepAlive
        case .unavailableNoReason:
            try await writeUnavailable(statusLine: "HTTP/1.1 503 ")
            return .keepAlive
        }
    }

    /// A head declaring ``FaultResponses/declaredPartialLength`` bytes, and
    /// ``FaultResponses/partialBodySize`` of them.
    private func writePartialBody() async throws {
        var response = FaultResponses.head(status: 200, [("Content-Length", "\(FaultResponses.declaredPartialLength)")])
        response.writeRepeatingByte(UInt8(ascii: "x"), count: FaultResponses.partialBodySize)
        try await outbound.write(response)
    }

    /// The head, then the body one byte per ``FaultResponses/trickleInterval``.
    private func trickle() async throws {
        try await outbound.write(
            FaultResponses.head(status: 200, [("Content-Length", "\(FaultResponses.trickleLength)")]))
        for _ in 0..<FaultResponses.trickleLength {
            try await Deadline.sleep(for: FaultResponses.trickleInterval)
            try await outbound.write(ByteBuffer(string: "x"))
        }
    }

    /// `Content-Length: 2147483648`, then that many bytes as fast as the client reads them.
    private func streamHugeBody() async throws {
        try await outbound.write(FaultResponses.head(status: 200, [("Content-Length", "\(FaultResponses.hugeLength)")]))
        let batch = Array(repeating: Self.filler, count: Self.buffersPerWrite)
        let batchSize = Int64(Self.filler.readableBytes * Self.buffersPerWrite)
        var remaining = FaultResponses.hugeLength
        while remaining >= batchSize {
            try await outbound.write(contentsOf: batch)
            remaining -= batchSize
        }
        try await outbound.write(ByteBuffer(repeating: UInt8(ascii: "x"), count: Int(remaining)))
    }

    private func writeGzip(_ body: ByteBuffer) async throws {
        var response = FaultResponses.head(
            status: 200,
            [
                ("Content-Type", "text/plain"), ("Content-Encoding", "gzip"),
                ("Content-Length", "\(body.readableBytes)"),
            ])
        response.writeImmutableBuffer(body)
        try await outbound.write(response)
    }

    /// A `200` with the `/ok` body and one extra (invalid) field.
    private func writeOK(withField field: (String, String)) async throws {
        try await outbound.write(FaultResponses.complete(status: 200, [field], body: FaultResponses.okBody))
    }

    private func writeRedirect(status: Int, to location: String, withBody: Bool) async throws {
        try await outbound.write(
            FaultResponses.complete(
                status: status, [("Location", location)], body: withBody ? FaultResponses.redirectBody : ""))
    }

    private func writeUnavailable(statusLine: String) async throws {
        let body = FaultResponses.unavailableBody
        var response = FaultResponses.head(
            statusLine,
            [
                ("Retry-After", "1"), ("Content-Type", "text/plain"), ("Content-Length", "\(body.utf8.count)"),
            ])
        response.writeString(body)
        try await outbound.write(response)
    }
}
