import NIOCore

/// Reads HTTP/1.1 requests from the bytes of one connection: the head up to the blank
/// line (`\r\n\r\n`), then as many body bytes as `Content-Length` says. Requests follow
/// each other on a kept-alive connection, so bytes after one request stay buffered for
/// the next.
struct RequestParser {
    /// The largest request head accepted, 64 KiB.
    static let maxHeadSize = 64 * 1024

    /// A request the parser cannot read.
    enum Failure: Error, Equatable {
        /// The head is longer than ``RequestParser/maxHeadSize``.
        case headTooLarge
        /// The request line is not `METHOD TARGET VERSION`.
        case badRequestLine
        /// A header line has no colon, or `Content-Length` is not a number.
        case badHeader
        /// The body is chunked, which the server does not read.
        case chunkedBody
    }

    private static let blankLine: [UInt8] = Array("\r\n\r\n".utf8)

    private var buffer = ByteBuffer()

    /// Adds bytes received from the connection.
    mutating func append(_ bytes: ByteBuffer) {
        var bytes = bytes
        buffer.writeBuffer(&bytes)
    }

    /// The next complete request on connection `connection`, or `nil` until more bytes arrive.
    /// - Throws: ``Failure`` for a request the server cannot read.
    mutating func next(connection: Int) throws(Failure) -> RecordedRequest? {
        let view = buffer.readableBytesView
        guard let headEnd = Self.firstIndex(of: Self.blankLine, in: view) else {
            if view.count > Self.maxHeadSize { throw .headTooLarge }
            return nil
        }
        let headLength = headEnd - view.startIndex
        let head = String(decoding: view[view.startIndex..<headEnd], as: UTF8.self)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count == 3 else { throw .badRequestLine }
        let fields = try lines.map { line throws(Failure) in try Self.field(line) }
        let request = RecordedRequest(
            connection: connection, method: String(requestLine[0]),
            target: String(requestLine[1]), headerFields: fields, body: [])
        if request.value(for: "transfer-encoding") != nil { throw .chunkedBody }
        let bodyLength: Int
        if let value = request.value(for: "content-length") {
            guard let length = Int(value), length >= 0 else { throw .badHeader }
            bodyLength = length
        } else {
            bodyLength = 0
        }
        let total = headLength + Self.blankLine.count + bodyLength
        guard buffer.readableBytes >= total else { return nil }
        buffer.moveReaderIndex(forwardBy: headLength + Self.blankLine.count)
        let body = buffer.readBytes(length: bodyLength) ?? []
        buffer.discardReadBytes()
        return RecordedRequest(
            connection: connection, method: request.method, target: request.target,
            headerFields: fields, body: body)
    }

    private static func field(_ line: String) throws(Failure) -> RecordedRequest.HeaderField {
        guard let colon = line.firstIndex(of: ":") else { throw .badHeader }
        let name = String(line[..<colon])
        let value = line[line.index(after: colon)...].trimmingWhitespace()
        return RecordedRequest.HeaderField(name: name, value: value)
    }

    private static func firstIndex(of needle: [UInt8], in view: ByteBufferView) -> Int? {
        guard view.count >= needle.count else { return nil }
        var index = view.startIndex
        let last = view.endIndex - needle.count
        while index <= last {
            if view[index] == needle[0], view[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    fileprivate func trimmingWhitespace() -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isWhitespace($0) }),
            let last = lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
