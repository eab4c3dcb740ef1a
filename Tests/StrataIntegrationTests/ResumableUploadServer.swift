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

/// A server on 127.0.0.1 that speaks the resumable upload protocol
/// (draft-ietf-httpbis-resumable-upload, interop versions 3, 5 and 6) through
/// swift-nio-extras' `NIOResumableUpload` — Apple's implementation of the draft, not
/// Strata's — and stores each completed upload in a temporary folder.
///
/// A fault step in front of each connection cuts it after a number of request bytes:
/// `cuts` says after how many, counted from a connection's first `PATCH` (an upload's
/// content), connection by connection in the order their first `PATCH` arrives;
/// connections past the list are not cut. An `answer` step before the
/// protocol's handler can answer a request itself (a server that lies, or has lost the
/// upload).
final class ResumableUploadServer: Sendable {
    /// An upload the server stored whole.
    struct Stored: Sendable, Equatable {
        let path: String
        let size: Int
        let sha256: String
    }

    /// `http://127.0.0.1:PORT`.
    let baseURL: URL
    private let channel: any Channel
    private let state: NIOLockedValueBox<State>
    let directory: URL

    private struct State {
        var cuts: [Int]
        /// Whether a cut stops reading instead of closing: the client's request hangs.
        var stalls = false
        var connections = 0
        var stored: [Stored] = []
        var bytesIn = 0
    }

    /// The uploads stored whole, in the order they completed.
    var stored: [Stored] { state.withLockedValue { $0.stored } }
    /// How many connections the server accepted.
    var connections: Int { state.withLockedValue { $0.connections } }
    /// How many bytes came in on all connections, head and body.
    var bytesIn: Int { state.withLockedValue { $0.bytesIn } }

    private init(baseURL: URL, channel: any Channel, state: NIOLockedValueBox<State>, directory: URL) {
        self.baseURL = baseURL
        self.channel = channel
        self.state = state
        self.directory = directory
    }

    /// Runs `body` with a server whose connections are cut after `cuts` bytes (or, when
    /// `stalls`, stop being read there), and always stops it. `answer` answers the
    /// requests it returns a response for in the protocol's place.
    static func with<T>(
        cuts: [Int] = [], stalls: Bool = false,
        answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse? = { _ in nil },
        _ body: (ResumableUploadServer) async throws -> T
    ) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-resumable-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = NIOLockedValueBox(State(cuts: cuts, stalls: stalls))
        // The upload context names the server's origin, known once it is bound.
        let uploads = NIOLockedValueBox<HTTPResumableUploadContext?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    state.withLockedValue { $0.connections += 1 }
                    guard let context = uploads.withLockedValue({ $0 }) else { throw ChannelError.ioOnClosedChannel }
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(CutAfter(state: state))
                    try sync.configureHTTPServerPipeline()
                    try sync.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                    try sync.addHandler(Answer(answer: answer))
                    try sync.addHandler(
                        HTTPResumableUploadHandler(context: context) { upload in
                            try? upload.pipeline.syncOperations.addHandler(Store(directory: directory, state: state))
                        })
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let port = channel.localAddress?.port ?? 0
        uploads.withLockedValue { $0 = HTTPResumableUploadContext(origin: "http://127.0.0.1:\(port)") }
        let server = ResumableUploadServer(
            baseURL: URL(string: "http://127.0.0.1:\(port)")!, channel: channel, state: state, directory: directory)
        do {
            let result = try await body(server)
            try? await channel.close()
            return result
        } catch {
            try? await channel.close()
            throw error
        }
    }

    /// Counts the bytes that come in and, from a connection's first `PATCH` on (it takes the
    /// next of the server's cuts then), closes it once the cut's bytes have; what comes
    /// after is dropped.
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
            // after the previous one's answer, so a request starts a read).
            if left == nil, buffer.readableBytesView.starts(with: "PATCH ".utf8) {
                left = state.withLockedValue { $0.cuts.isEmpty ? nil : $0.cuts.removeFirst() }
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
                state.withLockedValue { $0.stored.append(Stored(path: path, size: size, sha256: digest)) }
                var response = HTTPResponse(status: .created)
                response.headerFields[.contentLength] = "\(String(size).utf8.count)"
                context.write(wrapOutboundOut(.head(response)), promise: nil)
                context.write(
                    wrapOutboundOut(.body(context.channel.allocator.buffer(string: String(size)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
