import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP relay on 127.0.0.1 to a server on another local port, whose connections a test
/// resets when it chooses: how a test drops the connection in the middle of a call over
/// a protocol the ``FaultServer`` does not speak (gRPC over HTTP/2, say). Start it with
/// the server's port, point the client at ``port``, start a call, then
/// ``resetConnections()``; ``shutdown()`` when done.
///
/// Bytes go both ways as they arrive, without backpressure: a test relay, not a proxy.
public final class TCPRelay: Sendable {
    /// The port the relay listens on, chosen by the system.
    public let port: Int
    private let listener: any Channel
    private let connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>

    private init(port: Int, listener: any Channel, connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>) {
        self.port = port
        self.listener = listener
        self.connections = connections
    }

    /// Starts a relay to `127.0.0.1:target` on a free port.
    /// - Throws: SwiftNIO's error when the relay cannot bind.
    public static func start(to target: Int) async throws -> TCPRelay {
        let connections = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { client in
                // The upstream connection shares the client's event loop, so both pipelines
                // are set up from it.
                ClientBootstrap(group: client.eventLoop)
                    .channelOption(.socketOption(.tcp_nodelay), value: 1)
                    .connect(host: "127.0.0.1", port: target)
                    .flatMapThrowing { upstream in
                        try client.pipeline.syncOperations.addHandler(Forwarder(to: upstream))
                        try upstream.pipeline.syncOperations.addHandler(Forwarder(to: client))
                        let key = ObjectIdentifier(client)
                        connections.withLockedValue { $0[key] = client }
                        client.closeFuture.whenComplete { _ in
                            connections.withLockedValue { _ = $0.removeValue(forKey: key) }
                        }
                    }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = listener.localAddress?.port else {
            try? await listener.close()
            throw FaultServerError.noPort
        }
        return TCPRelay(port: port, listener: listener, connections: connections)
    }

    /// Resets every connection open through the relay (RST to the client, the server's
    /// side closed), as a network that drops would; new connections are still relayed.
    public func resetConnections() async {
        let open = connections.withLockedValue { Array($0.values) }
        for channel in open {
            try? await (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
            try? await channel.close()
        }
    }

    /// Stops listening and resets the connections still open.
    public func shutdown() async {
        try? await listener.close()
        await resetConnections()
    }
}

/// Writes what one side of a relayed connection reads to the other, and closes the other
/// when this one closes.
private final class Forwarder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let partner: any Channel

    init(to partner: any Channel) {
        self.partner = partner
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
