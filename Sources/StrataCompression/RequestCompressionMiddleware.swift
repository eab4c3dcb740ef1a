#if Compression
    import Foundation
    import HTTPTypes
    import Strata

    /// Sends request bodies gzip-compressed (`Content-Encoding: gzip`, RFC 9110 §8.4), streamed:
    /// the body is compressed chunk by chunk as the transport reads it, so a 1 GB upload
    /// holds no more than zlib's state and a chunk or two in memory.
    ///
    /// ```swift
    /// let client = Networker(
    ///     transport: AsyncHTTPClientTransport(),
    ///     middleware: [RetryMiddleware(), RequestCompressionMiddleware(threshold: 1024)])
    /// ```
    ///
    /// A body is compressed when it holds at least the threshold (``threshold``, or the one
    /// the endpoint gives with `endpoint.requestCompression(.gzip(threshold:))`), or when
    /// its length is unknown (a stream). It is sent as it is when the method is `GET` or
    /// `HEAD`, when it is empty, when the request already has a `Content-Encoding` (the app
    /// encoded it itself), when its `Content-Type` is compressed already (a JPEG, a video, a
    /// zip: see ``isCompressedMediaType(_:)``; ``skipsCompressedMediaTypes``) and the endpoint
    /// did not ask for gzip, or when the endpoint says `.requestCompression(.never)`. With ``Scope/endpointsThatAsk`` only
    /// endpoints that ask are compressed.
    ///
    /// The compressed length is not known in advance, so the step removes `Content-Length`
    /// and each transport does what it does with such a body: AsyncHTTPClient sends it with
    /// `Transfer-Encoding: chunked` as it is compressed (on HTTP/2, in DATA frames);
    /// `URLSessionTransport` collects a streamed body in memory before the request starts,
    /// up to its `streamedBodyLimit` (the *compressed* bytes count), and sends it with the
    /// `Content-Length` of what it collected — and a file body, which URLSession would
    /// otherwise send from the file, is read and compressed into memory too. For uploads
    /// larger than that limit, use the AsyncHTTPClient transport (or `.never`).
    ///
    /// A `415 Unsupported Media Type` answer to a compressed body whose `Accept-Encoding`
    /// does not name `gzip` (RFC 7694 §3) means the server does not take compressed
    /// bodies: the call fails with `StrataError.Kind.requestCompressionRefused` and a
    /// ``RequestCompressionRefusal``, or, with ``RefusalPolicy/resendUncompressed`` and a
    /// replayable body, is sent once more uncompressed. A `415` whose `Accept-Encoding`
    /// names `gzip` is about something else, and is returned as it is.
    ///
    /// Put the step inside retry and redirect steps (after them in the array), so that each
    /// attempt is compressed afresh from the replayable body; the call's
    /// `EndpointResponse.requestCompression` (``RequestCompressionReport``) says what was
    /// sent.
    public struct RequestCompressionMiddleware: Middleware {
        /// Which requests the step compresses.
        public enum Scope: Sendable, Hashable {
            /// Every request with a body at or over the threshold, unless its endpoint says
            /// `.requestCompression(.never)`.
            case everyRequest
            /// Only those whose endpoint says `.requestCompression(.gzip(...))`.
            case endpointsThatAsk
        }

        /// What the step does when the server refuses a compressed body (`415`).
        public enum RefusalPolicy: Sendable, Hashable {
            /// Fail with `StrataError.Kind.requestCompressionRefused`.
            case fail
            /// Send the body once more, uncompressed, when it is replayable (a body read once,
            /// such as a stream, fails as with ``fail``).
            case resendUncompressed
        }

        /// The fewest bytes a body of known length must hold to be compressed.
        public let threshold: Int64
        /// How hard zlib works.
        public let level: GzipLevel
        /// Which requests are compressed.
        public let scope: Scope
        /// What a `415` to a compressed body leads to.
        public let onRefusal: RefusalPolicy
        /// Whether bodies of a media type that is compressed already
        /// (``isCompressedMediaType(_:)``) go as they are: gzip does not shrink them and costs
        /// about as much CPU per MiB as it does on text (`strata-bench --gzip-upload`).
        public let skipsCompressedMediaTypes: Bool

        /// Creates the step.
        /// - Parameters:
        ///   - threshold: the fewest bytes a body of known length must hold to be compressed
        ///     (1 KiB by default: below about that, gzip's 18 bytes of framing and the CPU
        ///     cost more than they save).
        ///   - level: how hard zlib works (``GzipLevel/default``, level 6).
        ///   - scope: which requests are compressed (all by default).
        ///   - onRefusal: what a `415` to a compressed body leads to (a typed failure by default).
        ///   - skipsCompressedMediaTypes: whether bodies of a compressed media type go as they
        ///     are (by default they do).
        public init(
            threshold: Int64 = 1024, level: GzipLevel = .default, scope: Scope = .everyRequest,
            onRefusal: RefusalPolicy = .fail, skipsCompressedMediaTypes: Bool = true
        ) {
            self.threshold = max(threshold, 0)
            self.level = level
            self.scope = scope
            self.onRefusal = onRefusal
            self.skipsCompressedMediaTypes = skipsCompressedMediaTypes
        }

        /// Whether `contentType` (a `Content-Type` value) names a format that is compressed
        /// already: images but SVG and BMP, audio but WAV, video, fonts in WOFF, and archives
        /// and documents that are archives or compressed streams (zip, gzip, bzip2, xz, zstd,
        /// brotli, 7z, RAR, PDF, Office Open XML, OpenDocument, EPUB, JAR, APK).
        public static func isCompressedMediaType(_ contentType: String) -> Bool {
            let mediaType =
                (contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? "")
                .trimmingCharacters(in: .whitespaces).lowercased()
            let parts = mediaType.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return false }
            let (type, subtype) = (parts[0], parts[1])
            switch type {
            case "image": return !["svg+xml", "bmp", "x-bmp", "x-ms-bmp", "tiff"].contains(subtype)
            case "audio": return !["wav", "x-wav", "wave", "vnd.wave", "aiff", "x-aiff", "basic"].contains(subtype)
            case "video": return true
            case "font": return subtype == "woff" || subtype == "woff2"
            case "application":
                return compressedApplicationTypes.contains(subtype)
                    || subtype.hasPrefix("vnd.openxmlformats-officedocument.")
                    || subtype.hasPrefix("vnd.oasis.opendocument.")
            default: return false
            }
        }

        /// The `application/` subtypes of ``isCompressedMediaType(_:)``.
        private static let compressedApplicationTypes: Set<String> = [
            "zip", "gzip", "x-gzip", "x-bzip2", "x-xz", "zstd", "x-zstd", "x-brotli", "br", "x-7z-compressed",
            "x-rar-compressed", "vnd.rar", "pdf", "epub+zip", "java-archive", "vnd.android.package-archive",
            "font-woff", "x-font-woff",
        ]

        /// `true`: it reads a refusal's body only within the call's deadline, and waits for
        /// nothing else but `next`.
        public var boundsItsWaits: Bool { true }

        /// Compresses the body when it should, sends the request, and turns a refusal into a
        /// `StrataError` (or resends the body uncompressed, see ``onRefusal``).
        /// - Throws: `StrataError` of kind `requestCompressionRefused` for a refusal; what
        ///   `next` throws.
        public func intercept(
            _ request: HTTPRequest,
            body: MessageBody?,
            context: MiddlewareContext,
            next: MiddlewareNext
        ) async throws -> (HTTPResponse, MessageBody?) {
            guard let body, compresses(request, body: body, context: context) else {
                return try await next(request, body, context)
            }
            var compressed = request
            compressed.headerFields[.contentEncoding] = "gzip"
            compressed.headerFields[.contentLength] = nil
            context.record(
                RequestCompressionReport(contentCoding: "gzip", bytesRead: 0, bytesSent: 0),
                for: RequestCompressionReportKey.self)
            let gzipBody = body.gzipCompressed(level: level) { read, written in
                context.updateRecord(RequestCompressionReportKey.self) { report in
                    report?.bytesRead = read
                    report?.bytesSent = written
                }
            }
            let (response, responseBody) = try await next(compressed, gzipBody, context)
            guard response.status.code == HTTPResponse.Status.unsupportedMediaType.code,
                let refusal = Self.refusal(of: "gzip", in: response)
            else {
                return (response, responseBody)
            }
            context.updateRecord(RequestCompressionReportKey.self) { $0?.refused = true }
            if onRefusal == .resendUncompressed, body.isReplayable {
                await responseBody?.discard(until: context.deadline)
                context.updateRecord(RequestCompressionReportKey.self) { $0?.resentUncompressed = true }
                return try await next(request, body, context)
            }
            let snippet = await responseBody?.prefix(StrataError.defaultErrorBodyLimit + 1, until: context.deadline)
            throw StrataError(
                .requestCompressionRefused, underlying: refusal, request: compressed, response: response,
                body: snippet)
        }

        /// Whether `request` goes compressed: the endpoint's option, the scope, the method,
        /// an existing coding, the media type and the threshold decide.
        func compresses(_ request: HTTPRequest, body: MessageBody, context: MiddlewareContext) -> Bool {
            let threshold: Int64
            switch context.requestCompression {
            case .never: return false
            case .gzip(let own): threshold = own ?? self.threshold
            case nil:
                guard scope == .everyRequest else { return false }
                threshold = self.threshold
            }
            guard request.method != .get, request.method != .head,
                request.headerFields[.contentEncoding] == nil
            else { return false }
            // An endpoint that asks gets gzip whatever its media type.
            if skipsCompressedMediaTypes, context.requestCompression == nil,
                let type = request.headerFields[.contentType], Self.isCompressedMediaType(type)
            {
                return false
            }
            guard let length = body.length else { return true }
            return length > 0 && length >= threshold
        }

        /// The refusal a `415` says, or `nil` when its `Accept-Encoding` names `coding` (the
        /// `415` is then about something else).
        static func refusal(of coding: String, in response: HTTPResponse) -> RequestCompressionRefusal? {
            let accepted = response.headerFields[values: .acceptEncoding]
                .flatMap { $0.split(separator: ",") }
                .compactMap { item -> String? in
                    let name = item.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
                    let trimmed = name.trimmingCharacters(in: .whitespaces).lowercased()
                    return trimmed.isEmpty ? nil : trimmed
                }
            guard !accepted.contains(coding), !(coding == "gzip" && accepted.contains("x-gzip")) else { return nil }
            return RequestCompressionRefusal(contentCoding: coding, acceptedCodings: accepted)
        }
    }
#endif
