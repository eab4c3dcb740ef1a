#if Observability
    import Foundation

    /// How `url.full` shows a request's URL on spans: user info is always removed (the
    /// OpenTelemetry HTTP conventions require it); query values are replaced by `REDACTED`
    /// unless their name is allowed.
    ///
    /// ```swift
    /// let telemetry = TelemetryMiddleware(redaction: URLRedaction(keepingQueryValuesOf: ["page", "per_page"]))
    /// ```
    public struct URLRedaction: Sendable, Hashable {
        /// Query parameters whose values are shown as they are; `nil` shows every value.
        public var keptQueryNames: Set<String>?

        /// Redacts every query value except those of `names`.
        public init(keepingQueryValuesOf names: Set<String> = []) {
            self.keptQueryNames = names
        }

        /// Every query value redacted (the default).
        public static let queryValues = URLRedaction()
        /// Query values shown as they are (user info still removed).
        public static let userInfoOnly = URLRedaction(keptQueryNames: nil)

        private init(keptQueryNames: Set<String>?) {
            self.keptQueryNames = keptQueryNames
        }

        /// `scheme://host[:port]/path[?query]` with user info removed and query values
        /// redacted by this policy; the fragment is never sent, so never shown.
        public func full(scheme: String, authority: String, path: String) -> String {
            let host =
                authority.lastIndex(of: "@").map { String(authority[authority.index(after: $0)...]) } ?? authority
            guard let question = path.firstIndex(of: "?") else { return "\(scheme)://\(host)\(path)" }
            let query = path[path.index(after: question)...]
            let shown = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
                guard let equals = item.firstIndex(of: "=") else { return String(item) }
                let name = item[..<equals]
                if let kept = keptQueryNames, !kept.contains(String(name)) { return "\(name)=REDACTED" }
                return String(item)
            }
            return "\(scheme)://\(host)\(path[..<question])?\(shown.joined(separator: "&"))"
        }
    }
#endif
