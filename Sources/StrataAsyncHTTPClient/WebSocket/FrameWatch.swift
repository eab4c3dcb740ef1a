#if WebSocket
    import NIOCore
    import NIOWebSocket
    import Strata

    /// What `FrameWatch` saw of the frames swift-websocket's handler keeps to itself: the
    /// pongs (it answers the peer's pings but does not report pongs) and which side sent a
    /// close frame first (it closes on its own when a frame is refused, a compressed
    /// message inflates past the bound, or the peer closes).
    final class FrameRelay: Sendable {
        private struct State {
            var awaitedPong: (data: ByteBuffer, pong: @Sendable () -> Void)?
            var firstClose: FirstClose?
        }

        /// The first close frame on the connection.
        struct FirstClose: Sendable, Equatable {
            /// Its code, when it had one.
            var code: UInt16?
            /// Its reason, when it had one.
            var reason: String?
            /// Whether this side sent it.
            var sentHere: Bool
        }

        private let state = Locked(State())

        /// Awaits the pong that carries `data`, replacing any pong awaited before.
        func awaitPong(_ data: ByteBuffer, pong: @escaping @Sendable () -> Void) {
            state.withLock { $0.awaitedPong = (data, pong) }
        }

        /// The first close frame, once one went either way.
        var firstClose: FirstClose? { state.withLock { $0.firstClose } }

        /// A pong carrying `data` arrived.
        fileprivate func receivedPong(_ data: ByteBuffer) {
            let pong = state.withLock { state -> (@Sendable () -> Void)? in
                guard let waiting = state.awaitedPong, waiting.data == data else { return nil }
                state.awaitedPong = nil
                return waiting.pong
            }
            pong?()
        }

        /// A close frame went out (`sentHere`) or came in, with `data`.
        fileprivate func close(_ data: ByteBuffer, sentHere: Bool) {
            var data = data
            let code = data.readInteger(as: UInt16.self)
            let reason = data.readableBytes > 0 ? data.readString(length: data.readableBytes) : nil
            state.withLock { state in
                if state.firstClose == nil {
                    state.firstClose = FirstClose(code: code, reason: reason, sentHere: sentHere)
                }
            }
        }
    }

    /// Passes every frame on both ways, telling its ``FrameRelay`` of pongs and close frames;
    /// refuses a masked frame from the server.
    final class FrameWatch: ChannelDuplexHandler, Sendable {
        typealias InboundIn = WebSocketFrame
        typealias InboundOut = WebSocketFrame
        typealias OutboundIn = WebSocketFrame
        typealias OutboundOut = WebSocketFrame

        let relay: FrameRelay

        init(relay: FrameRelay) {
            self.relay = relay
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            // A server never masks (RFC 6455 5.1): such a frame ends the connection with 1002.
            guard frame.maskKey == nil else {
                context.fireErrorCaught(
                    WebSocketError.closed(
                        WebSocketClosure(code: .protocolError, reason: "masked frame from the server", byPeer: false)))
                return
            }
            switch frame.opcode {
            case .pong: relay.receivedPong(frame.unmaskedData)
            case .connectionClose: relay.close(frame.unmaskedData, sentHere: false)
            default: break
            }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            let frame = unwrapOutboundIn(data)
            // Outbound frames are masked on the wire, by the encoder after this handler: `data` is plain here.
            if frame.opcode == .connectionClose { relay.close(frame.data, sentHere: true) }
            context.write(data, promise: promise)
        }
    }
#endif
