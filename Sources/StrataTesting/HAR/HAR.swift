import Foundation

/// An HTTP Archive (HAR 1.2): the requests and responses of a session, as browsers export
/// them and as ``HARRecordingTransport`` writes and ``HARReplayTransport`` reads them.
///
/// Only the fields HAR 1.2 requires, and `postData`, `content.text` and
/// `content.encoding`, are written; unknown fields in a file read are ignored.
public struct HAR: Codable, Sendable, Equatable {
    /// The archive's root.
    public var log: Log

    /// An archive of `entries`, created by Strata.
    public init(entries: [Entry] = []) {
        log = Log(version: "1.2", creator: Creator(name: "Strata", version: "1"), entries: entries)
    }

    /// Reads the archive in `file`.
    public init(contentsOf file: URL) throws {
        self = try JSONDecoder().decode(HAR.self, from: Data(contentsOf: file))
    }

    /// The archive as pretty-printed JSON with sorted keys, stable from run to run.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// `log`: the version, the creator and the entries.
    public struct Log: Codable, Sendable, Equatable {
        /// `1.2`.
        public var version: String
        /// What wrote the archive.
        public var creator: Creator
        /// One entry per exchange, in the order they started.
        public var entries: [Entry]
    }

    /// `creator`: a name and a version.
    public struct Creator: Codable, Sendable, Equatable {
        /// The tool's name.
        public var name: String
        /// The tool's version.
        public var version: String
    }

    /// One exchange.
    public struct Entry: Codable, Sendable, Equatable {
        /// When the request started, ISO 8601 with milliseconds.
        public var startedDateTime: String
        /// Milliseconds from the start to the end of the response body.
        public var time: Double
        /// The request.
        public var request: Request
        /// The response.
        public var response: Response
        /// Unused by Strata: always empty.
        public var cache: Cache
        /// Where the time went.
        public var timings: Timings
    }

    /// `request`.
    public struct Request: Codable, Sendable, Equatable {
        /// The method.
        public var method: String
        /// The absolute URL.
        public var url: String
        /// `HTTP/1.1`.
        public var httpVersion: String
        /// Unused by Strata (the `Cookie` field is among ``headers``, redacted).
        public var cookies: [NameValue]
        /// The header fields, in order.
        public var headers: [NameValue]
        /// The query's items.
        public var queryString: [NameValue]
        /// The body, when there is one.
        public var postData: PostData?
        /// `-1`: not recorded.
        public var headersSize: Int
        /// The body's byte count (0 without one).
        public var bodySize: Int
    }

    /// `response`.
    public struct Response: Codable, Sendable, Equatable {
        /// The status code.
        public var status: Int
        /// The reason phrase.
        public var statusText: String
        /// `HTTP/1.1`.
        public var httpVersion: String
        /// Unused by Strata (the `Set-Cookie` fields are among ``headers``, redacted).
        public var cookies: [NameValue]
        /// The header fields, in order.
        public var headers: [NameValue]
        /// The body.
        public var content: Content
        /// The `Location`, or empty.
        public var redirectURL: String
        /// `-1`: not recorded.
        public var headersSize: Int
        /// The body's byte count.
        public var bodySize: Int
    }

    /// A header field or query item.
    public struct NameValue: Codable, Sendable, Equatable {
        /// The name.
        public var name: String
        /// The value.
        public var value: String
        /// A pair.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `postData`: a request body.
    public struct PostData: Codable, Sendable, Equatable {
        /// Its `Content-Type`, or empty.
        public var mimeType: String
        /// The bytes: UTF-8 text as it is; other bytes in Base64, with ``encoding``.
        public var text: String
        /// `base64` when ``text`` is Base64 (an extension HAR readers accept here too).
        public var encoding: String?
    }

    /// `content`: a response body.
    public struct Content: Codable, Sendable, Equatable {
        /// The byte count.
        public var size: Int
        /// Its `Content-Type`, or empty.
        public var mimeType: String
        /// The bytes: UTF-8 text as it is; other bytes in Base64, with ``encoding``.
        public var text: String?
        /// `base64` when ``text`` is Base64.
        public var encoding: String?
    }

    /// `cache`: empty.
    public struct Cache: Codable, Sendable, Equatable {}

    /// `timings`, in milliseconds.
    public struct Timings: Codable, Sendable, Equatable {
        /// Sending the request (0: the transport does not say).
        public var send: Double
        /// From the request to the response head.
        public var wait: Double
        /// Reading the body.
        public var receive: Double
    }
}

extension HAR {
    /// `bytes` as HAR text: as they are when they are UTF-8, else Base64 (`encoding`).
    static func text(of bytes: Data) -> (text: String, encoding: String?) {
        if let text = String(data: bytes, encoding: .utf8) { return (text, nil) }
        return (bytes.base64EncodedString(), "base64")
    }

    /// The bytes HAR `text` stands for.
    static func bytes(of text: String, encoding: String?) -> Data {
        encoding == "base64" ? Data(base64Encoded: text) ?? Data() : Data(text.utf8)
    }
}
