import Foundation
import HTTPTypes

extension HTTPRequest {
    /// The request as a `curl` command line, to run it again by hand or paste it into a bug
    /// report: method, URL, header fields and a text body.
    ///
    /// ```swift
    /// print(request.curlCommand(body: body))
    /// // curl --request POST 'https://api.example.com/users?notify=1' \
    /// //   --header 'Content-Type: application/json' \
    /// //   --header 'Authorization: <redacted>' \
    /// //   --data-binary '{"name":"Ada"}'
    /// ```
    ///
    /// Every value is quoted for a POSIX shell. A body in memory that is UTF-8 text is sent
    /// with `--data-binary`, exactly; a binary or streamed body is not shown (a comment
    /// line says its size), so the command sends none. When a body is shown and the request
    /// has no `Content-Type`, the command sends none either (curl would add one). The
    /// command asks for what the request carries, no more: `curl` adds its own `Host`,
    /// `User-Agent` and `Accept` where the request has none, as a transport does.
    /// - Parameters:
    ///   - body: the request's body, if any. Only a body held in memory
    ///     (``MessageBody/bufferedData``) is written out; nothing is read from it.
    ///   - redacting: field names whose values are replaced by `<redacted>`, besides the
    ///     credentials (`Authorization`, `Proxy-Authorization`, `Cookie`).
    ///   - revealingCredentials: `true` writes the credentials' values as they are.
    public func curlCommand(
        body: MessageBody? = nil, redacting: Set<HTTPField.Name> = [], revealingCredentials: Bool = false
    ) -> String {
        let redacted = revealingCredentials ? redacting : redacting.union(HTTPFields.credentialNames)
        let text = body?.bufferedData.flatMap(Self.shownText)
        let methodFlag =
            switch method {
            case .get where text == nil: ""
            case .head: " --head"
            default: " --request \(Self.quoted(method.rawValue))"
            }
        var arguments = ["curl\(methodFlag) \(Self.quoted(target))"]
        for field in headerFields {
            let value = redacted.contains(field.name) ? "<redacted>" : field.value
            // `Name:` would tell curl to leave the field out; `Name;` sends it empty.
            let header = value.isEmpty ? "\(field.name.rawName);" : "\(field.name.rawName): \(value)"
            arguments.append("--header " + Self.quoted(header))
        }
        if let text {
            if headerFields[.contentType] == nil { arguments.append("--header 'Content-Type:'") }
            arguments.append("--data-binary " + Self.quoted(text))
        } else if let body, body.bufferedData?.isEmpty != true {
            let size = body.length.map { "\($0) bytes" } ?? "unknown length"
            let kind = body.bufferedData == nil ? "streamed" : "binary"
            arguments.append("# body not shown: \(kind), \(size)")
        }
        return arguments.joined(separator: " \\\n  ")
    }

    /// The absolute URL when the request has a scheme and authority, else its path.
    private var target: String {
        guard let scheme, let authority else { return path ?? "/" }
        return "\(scheme)://\(authority)\(path ?? "/")"
    }

    /// `data` as text a shell can carry: UTF-8 without NUL or other control characters
    /// than tab, line feed and carriage return; `nil` otherwise.
    private static func shownText(_ data: Data) -> String? {
        guard !data.isEmpty, let text = String(validUTF8: data) else { return nil }
        let isText = text.unicodeScalars.allSatisfy {
            ($0.value >= 0x20 && $0.value != 0x7F) || [0x09, 0x0A, 0x0D].contains($0.value)
        }
        return isText ? text : nil
    }

    /// `string` as one shell word: as it is when it holds only letters, digits and `-_.`
    /// (a method, mostly), else in single quotes, each `'` in it written `'\''`.
    private static func quoted(_ string: String) -> String {
        let isPlain = !string.isEmpty && string.utf8.allSatisfy { Self.plain.contains($0) }
        return isPlain ? string : "'" + string.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    private static let plain = Set(Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.".utf8))
}

extension StrataError {
    /// The failing call's ``request`` as a `curl` command; see
    /// `HTTPRequest.curlCommand(body:redacting:revealingCredentials:)`. That is the request
    /// as the call made it, before the client's steps changed it (header fields a step adds
    /// are not in it; `LoggingMiddleware(logsCurlCommands: true)` logs each attempt as sent),
    /// and its head only, so the command has no body. `nil` when the call failed before it
    /// had a request.
    public func curlCommand(redacting: Set<HTTPField.Name> = [], revealingCredentials: Bool = false) -> String? {
        request?.curlCommand(redacting: redacting, revealingCredentials: revealingCredentials)
    }
}
