import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP server on 127.0.0.1 (and on 127.0.0.2, 127.0.0.3, … for more lanes, each its own
/// host to a client, with a connection pool of its own) that answers `GET /h/SEED` with the bytes of that
/// ``HostileCase`` and ends the connection the case's way. A connection left open
/// (``HostileCase/Ending/silence``) goes on reading: a second request on it is served
/// too, and recorded as a reuse (``reuses``), so that a test can tell whether a client
/// sent a request over a connection whose last response it could not frame.
final class HostileServer: Sendable {
    /// A request that arrived on a connection after another one had been answered there.
    struct Reuse: Sendable, Hashable {
        /// The case answered before on the connection.
        let previous: UInt64
        /// The case requested over it.
        let next: UInt64
    }

    /// `http://127.0.0.N:PORT`, one for each lane.
    let baseURLs: [URL]
    private let channels: [any Channel]
    private let recorded: NIOLockedValueBox<Record>

    /// What the server saw: the cases it answered, and the reuses.
    struct Record: Sendable {
        var answered: Set<UInt64> = []
        var reuses: [Reuse] = []
    }

    private init(channels: [any Channel], recorded: NIOLockedValueBox<Record>) {
        self.baseURLs = channels.map { channel in
            let address = channel.localAddress
            return URL(string: "http://\(address?.ipAddress ?? "127.0.0.1"):\(address?.port ?? 0)")!
        }
        self.channels = channels
        self.recorded = recorded
    }

    /// Every reuse so far.
    var reuses: [Reuse] { recorded.withLockedValue { $0.reuses } }
    /// The cases answered so far.
    var answered: Set<UInt64> { recorded.withLockedValue { $0.answered } }

    /// The URL that gets `seed`'s response in `lane`.
    func url(for seed: UInt64, lane: Int = 0) -> URL {
        baseURLs[lane].appendingPathComponent("h/\(seed)")
    }

    /// Runs `body` with a server of `lanes` hosts answering the cases `cases` returns, and
    /// always stops it.
    static func with<T>(
        lanes: Int = 1,
        cases: @escaping @Sendable (UInt64) -> HostileCase?,
        _ body: (HostileServer) async throws -> T
    ) async throws -> T {
        let recorded = NIOLockedValueBox(Record())
        var channels: [any Channel] = []
        let result: Result<T, any Error>
        do {
            for lane in 0..<lanes {
                channels.append(
                    try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                        .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                        .childChannelInitializer { channel in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(
                                    Handler(cases: cases, recorded: recorded))
                            }
                        }
                        .bind(host: "127.0.0.\(lane + 1)", port: 0)
                        .get())
            }
            result = .success(try await body(HostileServer(channels: channels, recorded: recorded)))
        } catch {
            result = .failure(error)
        }
        for channel in channels { try? await channel.close() }
        return try result.get()
    }

    /// Reads request heads and answers each with its case's bytes.
    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let cases: @Sendable (UInt64) -> HostileCase?
        private let recorded: NIOLockedValueBox<Record>
        private var received: [UInt8] = []
        private var answered: UInt64?
        private var ended = false

        init(cases: @escaping @Sendable (UInt64) -> HostileCase?, recorded: NIOLockedValueBox<Record>) {
            self.cases = cases
            self.recorded = recorded
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !ended else { return }
            received.append(contentsOf: unwrapInboundIn(data).readableBytesView)
            while !ended, let end = HostileExpectation.find([13, 10, 13, 10], in: received[...], from: 0) {
                let requestLine = String(decoding: received.prefix { $0 != 13 }, as: UTF8.self)
                received.removeFirst(end + 4)
                answer(requestLine, context: context)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }

        private func answer(_ requestLine: String, context: ChannelHandlerContext) {
            let target = requestLine.split(separator: " ").dropFirst().first ?? ""
            guard target.hasPrefix("/h/"), let seed = UInt64(target.dropFirst(3)), let hostile = cases(seed) else {
                ended = true
                context.close(promise: nil)
                return
            }
            recorded.withLockedValue { record in
                record.answered.insert(seed)
                if let answered { record.reuses.append(Reuse(previous: answered, next: seed)) }
            }
            answered = seed
            let write = context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: hostile.bytes)))
            guard hostile.ending != .silence else { return }
            ended = true
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            let reset = hostile.ending == .reset
            write.whenComplete { _ in
                let context = bound.value
                if reset, let socket = context.channel as? any SocketOptionProvider {
                    socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
                        bound.value.close(promise: nil)
                    }
                } else {
                    context.close(promise: nil)
                }
            }
        }
    }
}
