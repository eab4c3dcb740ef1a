import Foundation

/// A contiguous run of bytes in an encoded multipart body: either bytes in memory or a
/// whole file. A form's body is the concatenation of its segments.
enum MultipartSegment: Sendable {
    /// Bytes held in memory.
    case bytes(Data)
    /// The whole file at the URL, which must still have `size` bytes when it is read.
    case file(URL, size: Int64)

    /// The number of bytes the segment contributes.
    var byteCount: Int64 {
        switch self {
        case .bytes(let data): Int64(data.count)
        case .file(_, let size): size
        }
    }
}

extension MultipartFormData {
    /// The body as segments: for each part `--boundary CRLF headers CRLF`, the body and a
    /// CRLF, then the closing `--boundary-- CRLF`.
    var segments: [MultipartSegment] {
        var segments: [MultipartSegment] = []
        segments.reserveCapacity(parts.count * 3 + 1)
        for part in parts {
            segments.append(.bytes(Data("--\(boundary)\r\n\(part.headers)\r\n".utf8)))
            switch part.body {
            case .data(let data): segments.append(.bytes(data))
            case .file(let url, let size): segments.append(.file(url, size: size))
            }
            segments.append(.bytes(Data("\r\n".utf8)))
        }
        segments.append(.bytes(Data("--\(boundary)--\r\n".utf8)))
        return segments
    }

    /// The exact size of the encoded body in bytes, computed without reading any file.
    ///
    /// File parts count with the size they had when they were appended. `nil` only when
    /// the total cannot be represented (it would overflow `Int64`).
    public var contentLength: Int64? {
        var total: Int64 = 0
        for segment in segments {
            let (sum, overflow) = total.addingReportingOverflow(segment.byteCount)
            if overflow { return nil }
            total = sum
        }
        return total
    }
}
