#if WebSocket
    import NIOCore

    /// Holds the end of the peer's input back while the opening handshake's upgrade runs,
    /// then passes it on and closes the connection, as NIO closes a connection at the end of
    /// its input.
    ///
    /// NIO removes the HTTP decoder a turn after the `101` arrives, and a decoder that saw
    /// the end of the input drops the bytes it holds instead of forwarding them: a server
    /// that sends frames right behind its `101` and closes (a greeting, a close frame) would
    /// lose them when both are read in one turn. The connection allows half-closure, so the
    /// end arrives as `ChannelEvent.inputClosed`, which waits here until ``release()``.
    final class InputEndHold: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        private var context: ChannelHandlerContext?
        /// Whether the input ended while held.
        private var ended = false
        private var released = false

        func handlerAdded(context: ChannelHandlerContext) {
            self.context = context
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            self.context = nil
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            guard case .inputClosed? = event as? ChannelEvent else {
                context.fireUserInboundEventTriggered(event)
                return
            }
            if released { end(context) } else { ended = true }
        }

        /// The upgrade is done, its leftover bytes passed on (or it was refused): an end of
        /// the input held meanwhile follows them.
        func release() {
            released = true
            if ended, let context { end(context) }
        }

        private func end(_ context: ChannelHandlerContext) {
            context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
            context.close(promise: nil)
        }
    }
#endif
