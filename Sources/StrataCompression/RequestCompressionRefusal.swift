#if Compression
    import Strata

    /// The server does not accept a compressed request body: it answered `415 Unsupported
    /// Media Type` without naming the coding in `Accept-Encoding` (RFC 7694 §3); the
    /// `StrataError.underlying` of a `StrataError` of kind
    /// `StrataError.Kind.requestCompressionRefused`.
    public struct RequestCompressionRefusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// The coding the body was sent with: `gzip`.
        public let contentCoding: String
        /// The codings the `415` says the server accepts (its `Accept-Encoding`, lowercased,
        /// without weights); empty when it said nothing.
        public let acceptedCodings: [String]

        /// Creates the refusal.
        public init(contentCoding: String, acceptedCodings: [String]) {
            self.contentCoding = contentCoding
            self.acceptedCodings = acceptedCodings
        }

        /// `the server does not accept gzip request bodies (it accepts: identity)`
        public var description: String {
            let accepted = acceptedCodings.isEmpty ? "" : " (it accepts: \(acceptedCodings.joined(separator: ", ")))"
            return "the server does not accept \(contentCoding) request bodies\(accepted)"
        }
    }

    extension StrataError.Kind {
        /// The server refused a compressed request body with `415`; the underlying error is a
        /// ``RequestCompressionRefusal``. Send the body uncompressed to that server
        /// (`endpoint.requestCompression(.never)`), or let the step do it
        /// (``RequestCompressionMiddleware/RefusalPolicy/resendUncompressed``).
        public static let requestCompressionRefused = StrataError.Kind("requestCompressionRefused") { error in
            error.underlying.map { String(describing: $0) } ?? "the server does not accept compressed request bodies"
        }
    }
#endif
