import Crypto
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix
import NIOResumableUpload

/// A server that speaks the resumable upload protocol (draft-ietf-httpbis-resumable-upload,
/// interop versions 3, 5 and 6) through swift-nio-extras' `NIOResumableUpload` — Apple's
/// implementation of the draft, not Strata's — and stores each completed upload in a
/// temporary folder, answering `201` with a ``Stored`` receipt in JSON: the demo's upload
/// host, and the resumable upload tests' server.
///
/// ```swift
/// let server = try await ResumableUploadServer.start(cuts: .eachUploadOnce(after: 1 << 20))
/// // POST http://127.0.0.1:PORT/uploads/NAME creates an upload; the first PATCH of
/// // each is cut after 1 MiB.
/// await server.shutdown()
/// ```
///
/// A fault step in front of each connection cuts it after a number of request bytes,
/// counted from a connection's first `PATCH` (an upload's content); see ``Cuts``. An
/// `answer` step before the protocol's handler can answer a request itself (a server that
/// lies, or has lost the upload).
public final class ResumableUploadServer: Sendable {
    /// An upload the server stored whole: the JSON body of its `201`.
    public struct Stored: Sendable, Equatable, Codable {
        /// The path the upload was created at.
        public let path: String
        /// The bytes stored.
        public let size: Int
        /// Their SHA-256, in lowercase hexadecimal.
        public let sha256: String

        /// Creates a receipt.
        public init(path: String, size: Int, sha256: String) {
            self.path = path
            self.size = size
            self.sha256 = sha256
        }
    }

    /// Which connections the server cuts, and after how many request bytes from their
    /// first `PATCH`.
    public enum Cuts: Sendable, ExpressibleByArrayLiteral {
        /// Connections in the order their first `PATCH` arrives, each after the next count
        /// of bytes; connections past the list are not cut.
        case inOrder([Int])
        /// The first `PATCH` of each upload (each upload resource), after `bytes`; the
        /// uploads' later ones are not cut.
        case eachUploadOnce(after: Int)

        /// ``inOrder(_:)`` with the counts listed.
        public init(arrayLiteral counts: Int...) { self = .inOrder(counts) }

        var isPerUpload: Bool {
            if case .eachUploadOnce = self { true } else { false }
        }
    }

    /// `http://HOST:PORT`.
    public let baseURL: URL
    private let channel: any Channel
    private let state: NIOLockedValueBox<State>
    private let directory: URL

    private struct State {
        var cuts: Cuts
        /// The upload resources whose first `PATCH` came (for ``Cuts/eachUploadOnce(after:)``).
        var appended: Set<String> = []
        /// Whether a cut stops reading instead of closing: the client's request hangs.
        var stalls = false
        var connections = 0
        var stored: [Stored] = []
        var bytesIn = 0

        /// The cut of a connection whose first `PATCH` is to `path`, if it is cut.
        mutating func cut(patching path: String) -> Int? {
            switch cuts {
            case .inOrder(let counts):
                guard let first = counts.first else { return nil }
                cuts = .inOrder(Array(counts.dropFirst()))
                return first
            case .eachUploadOnce(let bytes):
                return appended.insert(path).inserted ? bytes : nil
            }
        }
    }

    /// The uploads stored whole, in the order they completed.
    public var stored: [Stored] { state.withLockedValue { $0.stored } }
    /// How many connections the server accepted.
    public var connections: Int { state.withLockedValue { $0.connections } }
    /// How many bytes came in on all connections, head and body.
    public var bytesIn: Int { state.withLockedValue { $0.bytesIn } }

    private init(baseURL: URL, channel: any Channel, state: NIOLockedValueBox<State>, directory: URL) {
        self.baseURL = baseURL
        self.channel = channel
        self.state = state
        self.directory = directory
    }

    /// Starts a server and returns once it accepts connections.
    /// - Parameters:
    ///   - host: the address to bind, `127.0.0.1` by default.
    ///   - cuts: which connections are cut, and after how many bytes.
    ///   - stalls: whether a cut stops reading instead of closing the connection (the
    ///     client's request hangs).
    ///   - answer: answers the requests it returns a response for in the protocol's place
    ///     (their bodies dropped), closing their connection.
    /// - Throws: SwiftNIO's error when the server could not bind.
    public static func start(
        host: String = "127.0.0.1", cuts: Cuts = [], stalls: Bool = false,
        answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse? = { _ in nil }
    ) async throws -> ResumableUploadServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-resumable-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let state = NIOLockedValueBox(State(cuts: cuts, stalls: stalls))
        // The upload context names the server's origin, known once it is bound.
        let uploads = NIOLockedValueBox<HTTPResumableUploadContext?>(nil)
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        state.withLockedValue { $0.connections += 1 }
                        guard let context = uploads.withLockedValue({ $0 }) else {
                            throw ChannelError.ioOnClosedChannel
                        }
                        let sync = channel.pipeline.syncOperations
                        try sync.addHandler(CutAfter(state: state))
                        try sync.configureHTTPServerPipeline()
                        try sync.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try sync.addHandler(Answer(answer: answer))
                        try sync.addHandler(
                            HTTPResumableUploadHandler(context: context) { upload in
                                try? upload.pipeline.syncOperations.addHandler(
                                    Store(directory: directory, state: state))
                            })
                    }
                }
                .bind(host: host, port: 0)
                .get()
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        let port = channel.localAddress?.port ?? 0
        let origin = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        uploads.withLockedValue { $0 = HTTPResumableUploadContext(origin: origin) }
        guard let baseURL = URL(string: origin) else {
            try? await channel.close()
            try? FileManager.default.removeItem(at: directory)
            throw ChannelError.inappropriateOperationForState
        }
        return ResumableUploadServer(baseURL: baseURL, channel: channel, state: state, directory: directory)
    }

    /// Stops accepting connections and removes the stored uploads.
    public func shutdown() async {
        try? await channel.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `body` with a server on 127.0.0.1 (see ``start(host:cuts:stalls:answer:)``),
    /// and always stops it.
    public static func with<T>(
        cuts: Cuts = [], stalls: Bool = false,
        answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse? = { _ in nil },
        _ body: (ResumableUploadServer) async throws -> T
    ) async throws -> T {
        let server = try await start(cuts: cuts, stalls: stalls, answer: answer)
        do {
            let result = try await body(server)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    /// Counts the bytes that come in and, from a connection's first `PATCH` on (it takes its
    /// cut then, if it has one), closes it once the cut's bytes have; what comes after is
    /// dropped.
    private final class CutAfter: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        /// The bytes left before the cut: `nil` before the first `PATCH`, `.some(nil)` for a
        /// connection that is not cut.
        private var left: Int??
        private let state: NIOLockedValueBox<State>

        init(state: NIOLockedValueBox<State>) { self.state = state }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            let count = buffer.readableBytes
            // The connection takes its cut with its first PATCH (a client sends a request
            // after the previous one's answer, so a request starts a read); cut per
            // upload, with each upload's first PATCH, whatever came on it before.
            let looking = left == nil || (left == .some(nil) && state.withLockedValue { $0.cuts.isPerUpload })
            if looking, buffer.readableBytesView.starts(with: "PATCH ".utf8) {
                let line = buffer.getString(at: buffer.readerIndex, length: min(count, 512)) ?? ""
                let path = String(line.split(separator: " ", maxSplits: 2).dropFirst().first ?? "")
                left = state.withLockedValue { $0.cut(patching: path) }
            }
            guard case .some(.some(let cut)) = left else {
                state.withLockedValue { $0.bytesIn += count }
                return context.fireChannelRead(data)
            }
            guard cut > 0 else { return }
            if count >= cut {
                let slice = buffer.readSlice(length: cut)!
                left = 0
                state.withLockedValue { $0.bytesIn += cut }
                context.fireChannelRead(wrapInboundOut(slice))
                if state.withLockedValue({ $0.stalls }) {
                    try? context.channel.syncOptions?.setOption(.autoRead, value: false)
                } else {
                    context.close(promise: nil)
                }
            } else {
                left = cut - count
                state.withLockedValue { $0.bytesIn += count }
                context.fireChannelRead(data)
            }
        }
    }

    /// Answers the requests `answer` returns a response for (their bodies dropped) and
    /// closes their connection, and passes the others on.
    private final class Answer: ChannelInboundHandler {
        typealias InboundIn = HTTPRequestPart
        typealias OutboundOut = HTTPResponsePart

        let answer: @Sendable (HTTPRequest) -> HTTPResponse?
        private var answering = false

        init(answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse?) { self.answer = answer }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let part = unwrapInboundIn(data)
            if case .head(let request) = part, var response = answer(request) {
                answering = true
                response.headerFields[.contentLength] = "0"
                // The connection ends with the answer: kept alive, the next request on it
                // would wait for an answer that never comes.
                response.headerFields[.connection] = "close"
                context.write(wrapOutboundOut(.head(response)), promise: nil)
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
            }
            guard answering else { return context.fireChannelRead(data) }
            if case .end = part { answering = false }
        }
    }

    /// Writes an upload (reassembled across its resumptions by `NIOResumableUpload`) to a
    /// file named after its path, and answers `201` with the stored size when it ends.
    private final class Store: ChannelInboundHandler {
        typealias InboundIn = HTTPRequestPart
        typealias OutboundOut = HTTPResponsePart

        let directory: URL
        let state: NIOLockedValueBox<State>
        private var path = ""
        private var file: FileHandle?
        private var hash = SHA256()
        private var size = 0

        init(directory: URL, state: NIOLockedValueBox<State>) {
            self.directory = directory
            self.state = state
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let request):
                guard request.method == .post || request.method == .put else {
                    // Not an upload (an OPTIONS the upload handler passed on): nothing stored.
                    context.write(wrapOutboundOut(.head(HTTPResponse(status: .noContent))), promise: nil)
                    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                    return
                }
                path = request.path ?? "/"
                let url = directory.appendingPathComponent(UUID().uuidString)
                _ = FileManager.default.createFile(atPath: url.path, contents: nil)
                file = try? FileHandle(forWritingTo: url)
            case .body(let body):
                guard file != nil else { return }
                body.withUnsafeReadableBytes { bytes in
                    hash.update(bufferPointer: bytes)
                    try? file?.write(contentsOf: bytes)
                }
                size += body.readableBytes
            case .end:
                guard let file else { return }
                try? file.close()
                let digest = hash.finalize().map { String(format: "%02x", $0) }.joined()
                let stored = Stored(path: path, size: size, sha256: digest)
                state.withLockedValue { $0.stored.append(stored) }
                let receipt = (try? JSONEncoder().encode(stored)) ?? Data()
                var response = HTTPResponse(status: .created)
                response.headerFields[.contentType] = "application/json"
                response.headerFields[.contentLength] = "\(receipt.count)"
                context.write(wrapOutboundOut(.head(response)), promise: nil)
                context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: receipt))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
