import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import StrataServerLifecycle

/// `GET /files/:name`: files served as a download server serves them, for the transfer
/// tests. Each response carries `ETag` (strong, changed with the content), `Last-Modified`
/// and `Accept-Ranges: bytes`; `Range: bytes=N-` gets a `206` with `Content-Range` (or a
/// `416` with `Content-Range: bytes */SIZE` past the end), and an `If-Range` that does not
/// match the current `ETag` gets the whole file with `200`. A test replaces a file with
/// ``set(_:_:)``, has the next response close its connection after some bytes with
/// ``drop(_:after:)`` or go silent after them with ``stall(_:after:)``, and makes the
/// server ignore ranges with ``ignoresRanges``.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public final class FileRoutes: Sendable {
    private struct Stored: Sendable {
        /// The bytes, or the file on disk they are read from as they are sent.
        enum Content: Sendable {
            case data(Data)
            case file(URL, size: Int)
        }
        var content: Content
        var version: Int

        var size: Int {
            switch content {
            case .data(let data): data.count
            case .file(_, let size): size
            }
        }

        /// Calls `send` with the bytes from `start` on, in chunks of 64 KiB.
        func chunks(from start: Int, _ send: (Data) async throws -> Void) async throws {
            let chunkSize = 64 * 1024
            switch content {
            case .data(let data):
                for offset in stride(from: start, to: data.count, by: chunkSize) {
                    try await send(
                        data[(data.startIndex + offset)..<(data.startIndex + min(offset + chunkSize, data.count))])
                }
            case .file(let url, let size):
                let handle = try FileHandle(forReadingFrom: url)
                defer { try? handle.close() }
                try handle.seek(toOffset: UInt64(start))
                var offset = start
                while offset < size, let chunk = try handle.read(upToCount: min(chunkSize, size - offset)),
                    !chunk.isEmpty
                {
                    try await send(chunk)
                    offset += chunk.count
                }
            }
        }
    }

    private let files = NIOLockedValueBox<[String: Stored]>([:])
    private let received = NIOLockedValueBox<[String]>([])
    /// How the next response for a name ends early: after how many body bytes, and
    /// whether it then closes its connection or goes silent.
    private let interruptions = NIOLockedValueBox<[String: (bytes: Int, stalls: Bool)]>([:])
    private let ignoring = NIOLockedValueBox(false)
    private let pace = NIOLockedValueBox<Int?>(nil)
    private let wholeLimit = NIOLockedValueBox<Int?>(nil)

    private let coding = NIOLockedValueBox<String?>(nil)

    /// A `Content-Encoding` every response claims (the bytes stay as they are), or `nil`.
    public var contentEncoding: String? {
        get { coding.withLockedValue { $0 } }
        set { coding.withLockedValue { $0 = newValue } }
    }

    /// The most body bytes a second each response sends, as a network would (`nil`: as
    /// fast as the connection takes them).
    public var bytesPerSecond: Int? {
        get { pace.withLockedValue { $0 } }
        set { pace.withLockedValue { $0 = newValue } }
    }

    /// When set, every response that sends a whole file (a `200`) closes its connection
    /// after this many body bytes: a download completes only by resuming with `Range`.
    public var wholeResponseLimit: Int? {
        get { wholeLimit.withLockedValue { $0 } }
        set { wholeLimit.withLockedValue { $0 = newValue } }
    }

    /// Whether every request gets the whole file with `200`, `Range` or not.
    public var ignoresRanges: Bool {
        get { ignoring.withLockedValue { $0 } }
        set { ignoring.withLockedValue { $0 = newValue } }
    }

    /// Makes the next response for `name` close its connection after `bytes` body bytes.
    public func drop(_ name: String, after bytes: Int) {
        interruptions.withLockedValue { $0[name] = (bytes, stalls: false) }
    }

    /// Makes the next response for `name` send nothing more after `bytes` body bytes,
    /// until the client goes away or the server shuts down.
    public func stall(_ name: String, after bytes: Int) {
        interruptions.withLockedValue { $0[name] = (bytes, stalls: true) }
    }

    /// Creates the routes with no file.
    public init() {}

    /// Serves `data` as `name`, as a new version when it was there before.
    public func set(_ name: String, _ data: Data) {
        store(name, .data(data))
    }

    /// Serves the file at `url` (of `size` bytes) as `name`, read from disk as it is sent,
    /// as a new version when `name` was there before.
    public func set(_ name: String, contentsOf url: URL, size: Int) {
        store(name, .file(url, size: size))
    }

    private func store(_ name: String, _ content: Stored.Content) {
        files.withLockedValue { files in
            files[name] = Stored(content: content, version: (files[name]?.version ?? 0) + 1)
        }
    }

    /// The `Range` of every request so far (`-` for none), in order.
    public var ranges: [String] { received.withLockedValue { $0 } }

    /// Adds the route to `router`.
    public func register(on router: Router<BasicRequestContext>) {
        router.get("files/:name") { request, context in
            let name = context.parameters.get("name") ?? ""
            guard let file = self.files.withLockedValue({ $0[name] }) else { return Response(status: .notFound) }
            let range = request.headers[.range]
            self.received.withLockedValue { $0.append(range ?? "-") }
            let etag = "\"v\(file.version)\""
            var headers: HTTPFields = [
                .eTag: etag, .lastModified: "Wed, 25 Nov 2026 10:00:0\(file.version % 10) GMT", .acceptRanges: "bytes",
                .contentType: "application/octet-stream",
            ]
            if let coding = self.contentEncoding { headers[.contentEncoding] = coding }
            let size = file.size
            var start = 0
            var status = HTTPResponse.Status.ok
            if !self.ignoresRanges, let range, range.hasPrefix("bytes="), range.hasSuffix("-"),
                let first = Int(range.dropFirst(6).dropLast()),
                request.headers[.ifRange].map({ $0 == etag }) ?? true
            {
                guard first < size else {
                    headers[.contentRange] = "bytes */\(size)"
                    return Response(status: .rangeNotSatisfiable, headers: headers)
                }
                start = first
                status = .partialContent
                headers[.contentRange] = "bytes \(first)-\(size - 1)/\(size)"
            }
            let interruption =
                self.interruptions.withLockedValue { $0.removeValue(forKey: name) }
                ?? (status == .ok ? self.wholeResponseLimit.map { (bytes: $0, stalls: false) } : nil)
            headers[.contentLength] = String(size - start)
            let from = start
            let pace = self.bytesPerSecond
            return Response(
                status: status, headers: headers,
                body: .init { writer in
                    var sent = 0
                    let began = ContinuousClock.now
                    try await file.chunks(from: from) { chunk in
                        if let interruption, sent + chunk.count > interruption.bytes {
                            try await writer.write(ByteBuffer(bytes: chunk.prefix(interruption.bytes - sent)))
                            if interruption.stalls {
                                try await InProcessServer.sleepUnlessShuttingDown(for: .seconds(60))
                            }
                            throw FileRouteDrop()
                        }
                        try await writer.write(ByteBuffer(bytes: chunk))
                        sent += chunk.count
                        if let pace {
                            let due = began + .seconds(Double(sent) / Double(pace))
                            if due > .now {
                                try await InProcessServer.sleepUnlessShuttingDown(
                                    for: ContinuousClock.now.duration(to: due))
                            }
                        }
                    }
                    try await writer.finish(nil)
                })
        }
    }
}

/// Ends a `/files` response early, which closes its connection.
struct FileRouteDrop: Error {}
