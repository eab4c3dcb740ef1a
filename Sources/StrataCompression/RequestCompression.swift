#if Compression
    import Strata

    /// What an endpoint asks of a client's ``RequestCompressionMiddleware``: send its body
    /// gzip-compressed (from a threshold of its own, or the step's), or never.
    ///
    /// ```swift
    /// let export = Endpoint<Data>(RequestDescription(route: "https://api.example.com/export", method: .post, body: .data(rows, contentType: "text/csv")))
    ///     .requestCompression(.gzip(threshold: 0))  // always, however small
    /// let token = Endpoint<Data>(RequestDescription(route: "https://api.example.com/token", method: .post, body: .data(rows, contentType: "text/csv")))
    ///     .requestCompression(.never)  // this server does not take gzip
    /// ```
    public enum RequestCompression: Sendable, Hashable {
        /// gzip the body when it holds at least `threshold` bytes, or when its length is
        /// unknown; `nil` uses the step's threshold.
        case gzip(threshold: Int64? = nil)
        /// Send the body as it is.
        case never
    }

    /// What ``RequestCompressionMiddleware`` did with a call's body; on the call's
    /// `EndpointResponse` and `StrataError` as `requestCompression`.
    public struct RequestCompressionReport: Sendable, Hashable, CustomStringConvertible {
        /// The content coding the body was sent with: `gzip`.
        public var contentCoding: String
        /// The bytes read from the body given to the step, over the last complete reading.
        public var bytesRead: Int64
        /// The bytes handed to the transport for it (gzip's framing included), over the last
        /// complete reading: what went on the wire as the body, before any chunked framing.
        public var bytesSent: Int64
        /// Whether the server refused the compressed body (`415` not naming `gzip` in its
        /// `Accept-Encoding`).
        public var refused: Bool
        /// Whether the body was then sent again uncompressed (``RequestCompressionMiddleware/RefusalPolicy/resendUncompressed``).
        public var resentUncompressed: Bool

        /// Creates a report.
        public init(
            contentCoding: String, bytesRead: Int64, bytesSent: Int64, refused: Bool = false,
            resentUncompressed: Bool = false
        ) {
            self.contentCoding = contentCoding
            self.bytesRead = bytesRead
            self.bytesSent = bytesSent
            self.refused = refused
            self.resentUncompressed = resentUncompressed
        }

        /// `gzip 10485760 → 1204 bytes`
        public var description: String {
            var text = "\(contentCoding) \(bytesRead) → \(bytesSent) bytes"
            if refused { text += resentUncompressed ? ", refused, resent uncompressed" : ", refused" }
            return text
        }
    }

    /// Where an endpoint keeps its ``RequestCompression``.
    enum RequestCompressionKey: CallValueKey {
        typealias Value = RequestCompression
    }

    /// Where a call keeps its ``RequestCompressionReport``.
    enum RequestCompressionReportKey: CallValueKey {
        typealias Value = RequestCompressionReport

        static func describe(_ report: RequestCompressionReport) -> String? { "request body \(report)" }
    }

    extension Endpoint {
        /// Whether this call's body goes gzip-compressed, for a client with a
        /// ``RequestCompressionMiddleware`` (without one, the option does nothing).
        public func requestCompression(_ compression: RequestCompression) -> Endpoint {
            option(RequestCompressionKey.self, compression)
        }
    }

    extension MiddlewareContext {
        /// What the endpoint asked of request compression, if anything.
        public var requestCompression: RequestCompression? { options[RequestCompressionKey.self] }
    }

    extension EndpointResponse {
        /// What ``RequestCompressionMiddleware`` did with the request body; `nil` when it sent
        /// the body as it was.
        public var requestCompression: RequestCompressionReport? { records[RequestCompressionReportKey.self] }
    }

    extension StrataError {
        /// What ``RequestCompressionMiddleware`` did with the request body; `nil` when it sent
        /// the body as it was.
        public var requestCompression: RequestCompressionReport? { records[RequestCompressionReportKey.self] }
    }
#endif
