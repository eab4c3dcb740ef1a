import Foundation
import NIOCore
import NIOPosix

/// A TCP server on 127.0.0.1 that answers every request with fixed bytes and closes the
/// connection: for replies no HTTP server would send (bytes that are not HTTP, a body
/// shorter than its `Content-Length`, broken chunks, an upgrade answer with frames after
/// it). It reads until the end of the request head, writes its reply in one write, then
/// closes.
///
/// Small on purpose: a shared fault-injection server is to replace it.
final class RawReplyServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    let baseURL: URL
    private let channel: any Channel

    private init(baseURL: URL, channel: any Channel) {
        self.baseURL = baseURL
        self.channel = channel
    }

    /// Runs `body` with a server answering `reply`, and always stops it.
    static func with<T>(reply: [UInt8], _ body: (RawReplyServer) async throws -> T) async throws -> T {
        try await with(replying: { _ in reply }, body)
    }

    /// Runs `body` with a server answering what `reply` makes of the request head, and
    /// always stops it.
    static func with<T>(
        replying reply: @escaping @Sendable (_ head: String) -> [UInt8], _ body: (RawReplyServer) async throws -> T
    ) async throws -> T {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ReplyHandler(reply: reply))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let server = RawReplyServer(
            baseURL: URL(string: "http://127.0.0.1:\(channel.localAddress?.port ?? 0)")!,
            channel: channel)
        do {
            let result = try await body(server)
            try await channel.close()
            return result
        } catch {
            try? await channel.close()
            throw error
        }
    }

    /// The bytes of `text`, in which `\n` stands for CRLF.
    static func http(_ text: String) -> [UInt8] {
        Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
    }

    /// Reads the request head, then writes the reply and closes.
    private final class ReplyHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let reply: @Sendable (String) -> [UInt8]
        private var received: [UInt8] = []
        private var replied = false

        init(reply: @escaping @Sendable (String) -> [UInt8]) {
            self.reply = reply
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !replied else { return }
            received.append(contentsOf: unwrapInboundIn(data).readableBytesView)
            guard received.count >= 4,
                received.indices.dropLast(3).contains(where: {
                    received[$0...$0 + 3].elementsEqual([13, 10, 13, 10])
                })
            else { return }
            replied = true
            let buffer = context.channel.allocator.buffer(bytes: reply(String(decoding: received, as: UTF8.self)))
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in
                bound.value.close(promise: nil)
            }
        }
    }
}
