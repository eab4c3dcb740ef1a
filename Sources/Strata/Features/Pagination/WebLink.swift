import Foundation
import HTTPTypes

/// One link of a `Link` header field (RFC 8288): a target, its relation types and its
/// other parameters.
///
/// ```swift
/// let links = WebLink.links(in: #"<https://api.example.com/users?page=3>; rel="next", </users?page=9>; rel=last"#)
/// let next = links.first { $0.relations.contains("next") }?.url(relativeTo: nil)
/// // https://api.example.com/users?page=3
/// let last = links.first { $0.relations.contains("last") }?.url(relativeTo: URL(string: "https://api.example.com/a"))
/// // https://api.example.com/users?page=9
/// ```
public struct WebLink: Sendable, Hashable {
    /// The target as written between `<` and `>`: a URI reference, maybe relative.
    public var target: String
    /// The relation types of `rel`, lowercased (`rel="next last"` gives both).
    public var relations: [String]
    /// The parameters, names lowercased; the first of a repeated name wins.
    public var parameters: [String: String]

    /// A link to `target` with `relations` and `parameters`.
    public init(target: String, relations: [String], parameters: [String: String] = [:]) {
        self.target = target
        self.relations = relations
        self.parameters = parameters
    }

    /// The target resolved against `base` (the URL of the request the link came with);
    /// `nil` when it is not a URL reference `URL` accepts.
    public func url(relativeTo base: URL?) -> URL? {
        URL(string: target, relativeTo: base)?.absoluteURL
    }

    /// The links of every `Link` field in `fields`, in order.
    public static func links(in fields: HTTPFields) -> [WebLink] {
        fields[values: .link].flatMap(links(in:))
    }

    /// The links of one `Link` field value: `<target>; name=value; name="quoted", …`.
    ///
    /// Commas and semicolons inside `<…>` and quoted strings do not separate; a quoted
    /// string's backslash escapes are undone; a link-value that does not start with `<`,
    /// or whose `<` is never closed, is skipped. Any text gives a result, never a trap.
    public static func links(in value: String) -> [WebLink] {
        var scanner = LinkScanner(Array(value.utf8))
        var links: [WebLink] = []
        while let link = scanner.nextLink() { links.append(link) }
        return links
    }
}

extension HTTPField.Name {
    /// `Link` (RFC 8288).
    static let link = HTTPField.Name("Link")!
}

/// Reads `Link` values byte by byte (every delimiter is ASCII, so slicing the UTF-8
/// bytes there never splits a character).
private struct LinkScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func nextLink() -> WebLink? {
        while index < bytes.count {
            skip { $0 == UInt8(ascii: ",") || Self.isWhitespace($0) }
            guard index < bytes.count else { return nil }
            guard bytes[index] == UInt8(ascii: "<"),
                let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: ">"))
            else {
                skipValue()
                continue
            }
            let target = text(index + 1, close)
            index = close + 1
            let parameters = readParameters()
            let relations = (parameters["rel"] ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(
                String.init)
            return WebLink(target: target, relations: relations, parameters: parameters)
        }
        return nil
    }

    /// `; name=value` pairs up to the comma that ends the link-value.
    private mutating func readParameters() -> [String: String] {
        var parameters: [String: String] = [:]
        while true {
            skip(Self.isWhitespace)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else {
                skipValue()  // a comma, the end, or text that is not a parameter
                return parameters
            }
            index += 1
            skip(Self.isWhitespace)
            let nameStart = index
            skip { !Self.isWhitespace($0) && !Self.isDelimiter($0) && $0 != UInt8(ascii: "=") }
            let name = text(nameStart, index).lowercased()
            skip(Self.isWhitespace)
            var value = ""
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                skip(Self.isWhitespace)
                value = readValue()
            }
            if !name.isEmpty, parameters[name] == nil { parameters[name] = value }
        }
    }

    /// A quoted string (escapes undone) or a token.
    private mutating func readValue() -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            let start = index
            skip { !Self.isWhitespace($0) && !Self.isDelimiter($0) }
            return text(start, index)
        }
        index += 1
        var value: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
            value.append(bytes[index])
            index += 1
        }
        index = min(index + 1, bytes.count)  // past the closing quote
        return String(decoding: value, as: UTF8.self)
    }

    /// Skips to the comma that ends the current link-value, past quoted strings and `<…>`.
    private mutating func skipValue() {
        while index < bytes.count, bytes[index] != UInt8(ascii: ",") {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "<"):
                index = bytes[index...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count
            default: break
            }
            index = min(index + 1, bytes.count)
        }
    }

    private mutating func skip(_ predicate: (UInt8) -> Bool) {
        while index < bytes.count, predicate(bytes[index]) { index += 1 }
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    private static func isDelimiter(_ byte: UInt8) -> Bool { byte == UInt8(ascii: ";") || byte == UInt8(ascii: ",") }
}
