/// Reads just enough of a `multipart/form-data` body (RFC 7578) to describe its parts:
/// each part's field name, file name, content type and byte count.
enum MultipartParser {
    /// One part of a multipart body.
    struct Part: Equatable {
        /// The `name` of its `Content-Disposition`.
        var name: String?
        /// The `filename` of its `Content-Disposition`, for a file.
        var filename: String?
        /// Its `Content-Type`, when it has one.
        var contentType: String?
        /// The size of its body.
        var byteCount: Int
    }

    private static let crlf: [UInt8] = [13, 10]
    private static let headerEnd: [UInt8] = [13, 10, 13, 10]
    private static let dashes: [UInt8] = [45, 45]

    /// The `boundary` parameter of a `multipart/…` content type, unquoted.
    static func boundary(fromContentType contentType: String) -> String? {
        let parameters = HeaderParameters.parse(contentType)
        guard let boundary = parameters["boundary"], !boundary.isEmpty, boundary.count <= 70 else { return nil }
        return boundary
    }

    /// The parts of `body`, or `nil` when it is not a well-formed multipart body.
    static func parts(of body: [UInt8], boundary: String) -> [Part]? {
        let delimiter = dashes + Array(boundary.utf8)
        guard var position = firstIndex(of: delimiter, in: body, from: 0).map({ $0 + delimiter.count }) else {
            return nil
        }
        var parts: [Part] = []
        while true {
            if starts(with: dashes, in: body, at: position) { return parts }
            guard starts(with: crlf, in: body, at: position),
                let headersEnd = firstIndex(of: headerEnd, in: body, from: position + crlf.count)
            else { return nil }
            let headerText = String(decoding: body[(position + crlf.count)..<headersEnd], as: UTF8.self)
            let contentStart = headersEnd + headerEnd.count
            guard let next = firstIndex(of: crlf + delimiter, in: body, from: contentStart) else { return nil }
            parts.append(part(headers: headerText, byteCount: next - contentStart))
            position = next + crlf.count + delimiter.count
        }
    }

    private static func part(headers text: String, byteCount: Int) -> Part {
        var part = Part(byteCount: byteCount)
        for line in text.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingWhitespace().lowercased()
            let value = String(line[line.index(after: colon)...].trimmingWhitespace())
            switch name {
            case "content-disposition":
                let parameters = HeaderParameters.parse(value)
                part.name = parameters["name"]
                part.filename = parameters["filename"]
            case "content-type":
                part.contentType = value
            default:
                break
            }
        }
        return part
    }

    private static func starts(with prefix: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
        index + prefix.count <= bytes.count && bytes[index..<(index + prefix.count)].elementsEqual(prefix)
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first, start >= 0, bytes.count >= pattern.count else { return nil }
        var index = start
        while index <= bytes.count - pattern.count {
            if bytes[index] == first, starts(with: pattern, in: bytes, at: index) { return index }
            index += 1
        }
        return nil
    }
}
