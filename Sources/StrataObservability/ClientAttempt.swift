#if Observability
    import HTTPTypes
    import Strata

    /// What the OpenTelemetry HTTP client conventions say about one attempt, worked out once
    /// for its span and its metrics: the method (`_OTHER` for a method outside RFC 9110 and
    /// RFC 5789, with the original kept), `server.address`, `server.port`, the redacted
    /// `url.full` and `http.request.resend_count`.
    package struct ClientAttempt: Sendable {
        /// The methods the conventions name as they are.
        static let knownMethods: Set<String> = [
            "CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE",
        ]

        let method: String
        let originalMethod: String?
        let serverAddress: String?
        let serverPort: Int?
        let fullURL: String?
        /// Retries and redirects before this attempt.
        let resendCount: Int
        /// The endpoint's URL template (``Endpoint/urlTemplate``), except on a redirect's hop.
        let urlTemplate: String?

        init(_ start: AttemptStart, context: MiddlewareContext, redaction: URLRedaction) {
            let request = start.request
            urlTemplate = start.redirect == nil ? context.options[URLTemplateKey.self] : nil
            let method = request.method.rawValue
            let isKnown = Self.knownMethods.contains(method)
            self.method = isKnown ? method : "_OTHER"
            originalMethod = isKnown ? nil : method
            resendCount = start.resendCount
            guard let scheme = request.scheme, let authority = request.authority else {
                serverAddress = nil
                serverPort = nil
                fullURL = nil
                return
            }
            let (host, port) = Self.split(authority)
            serverAddress = host
            serverPort = port ?? (scheme.lowercased() == "https" ? 443 : scheme.lowercased() == "http" ? 80 : nil)
            fullURL = redaction.full(scheme: scheme, authority: authority, path: request.path ?? "/")
        }

        /// The span's name: the method (`HTTP` for one the conventions do not know), followed
        /// by the URL template when there is one.
        var spanName: String {
            let name = method == "_OTHER" ? "HTTP" : method
            return urlTemplate.map { "\(name) \($0)" } ?? name
        }

        /// The dimensions every HTTP metric carries.
        var dimensions: [(String, String)] {
            var dimensions = [("http.request.method", method)]
            if let serverAddress { dimensions.append(("server.address", serverAddress)) }
            if let serverPort { dimensions.append(("server.port", String(serverPort))) }
            return dimensions
        }

        /// `user@[::1]:8080` → (`::1`, 8080); `example.com` → (`example.com`, nil).
        package static func split(_ authority: String) -> (host: String, port: Int?) {
            let hostPort =
                authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority[...]
            if hostPort.first == "[", let close = hostPort.firstIndex(of: "]") {
                let host = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
                let rest = hostPort[hostPort.index(after: close)...]
                return (String(host), rest.first == ":" ? Int(rest.dropFirst()) : nil)
            }
            guard let colon = hostPort.lastIndex(of: ":") else { return (String(hostPort), nil) }
            return (String(hostPort[..<colon]), Int(hostPort[hostPort.index(after: colon)...]))
        }

        /// `error.type` for a response status (`404` for 4xx and 5xx) or a failure (a
        /// transport failure's kind, Strata's error kind, `cancelled`, else `_OTHER`).
        static func errorType(status: Int?, error: (any Error)?) -> String? {
            if let error {
                if let transport = error as? TransportError {
                    return transport.kind.description.replacingOccurrences(of: " ", with: "_")
                }
                if let strata = error as? StrataError { return strata.kind.description }
                if StrataError.isCancellation(error) { return "cancelled" }
                return "_OTHER"
            }
            guard let status, status >= 400 else { return nil }
            return String(status)
        }
    }
#endif
