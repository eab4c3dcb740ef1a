#if WebSocket
    import Foundation
    import Logging
    import NIOCore
    import NIOWebSocket
    import Strata
    @_spi(WSInternal) import WSCore

    /// An open WebSocket over SwiftNIO. swift-websocket's handler runs the protocol (pings,
    /// pongs, the close handshake, frame validation) in a task of its own and lends this
    /// channel its inbound frames and its outbound writer until the connection ends.
    /// Messages are reassembled here, in the reading task, at the reader's pace, within the
    /// size bound.
    ///
    /// The handler is let go (and so the connection closes) only while no read holds the
    /// frames: swift-websocket then reads the rest of the close handshake itself, from the
    /// same inbound sequence, which takes one reader at a time.
    ///
    /// Everything mutable is in `state`, a ``Locked`` (which guards what is not `Sendable`
    /// on its own: the inbound iterator is taken out of it by the one reading task and put
    /// back after each message), so the class is `Sendable` as it is.
    final class NIOWebSocketChannel: WebSocketChannel, Sendable {
        private struct State {
            /// The frames, while no read holds them.
            var inbound: WebSocketInboundStream.AsyncIterator?
            /// Whether a read holds the frames.
            var reading = false
            /// Waiting for the read that holds the frames to end.
            var waitingForReader: [CheckedContinuation<Void, Never>] = []
            var outbound: WebSocketOutboundWriter?
            /// Resumed to let the handler return (the connection then closes).
            var release: CheckedContinuation<Void, Never>?
            /// Whether the handler was let go, or is to be as soon as it is lent.
            var released = false
            /// How this side closed, if it did first.
            var closedHere: WebSocketClosure?
            var closure: WebSocketClosure?
        }

        /// How a read ended, handled once the frames are back.
        private enum ReadOutcome {
            case message(Strata.WebSocketMessage)
            case peerClosed
            case cancelled
            case failed(any Error)
        }

        private let state: Locked<State>
        private let maxMessageSize: Int
        /// The task running swift-websocket's handler; its value is the peer's close frame.
        private let running: Task<WebSocketCloseFrame?, any Error>

        /// Starts the protocol on `channel` (upgraded) and returns once its frames are lent.
        static func start(
            _ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>,
            configuration: WebSocketConfiguration,
            logger: Logger
        ) async -> NIOWebSocketChannel {
            let state = Locked(State())
            let (lent, lend) = AsyncStream.makeStream(of: Void.self)
            let running = run(channel, state: state, configuration: configuration, logger: logger) { lend.finish() }
            for await _ in lent {}
            return NIOWebSocketChannel(state: state, running: running, maxMessageSize: configuration.maxMessageSize)
        }

        private init(state: Locked<State>, running: Task<WebSocketCloseFrame?, any Error>, maxMessageSize: Int) {
            self.state = state
            self.running = running
            self.maxMessageSize = maxMessageSize
        }

        /// Runs swift-websocket's handler; `lent` is called once the frames are in `state`
        /// (or the handler ended without lending them).
        private static func run(
            _ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>,
            state: Locked<State>,
            configuration: WebSocketConfiguration,
            logger: Logger,
            lent: @escaping @Sendable () -> Void
        ) -> Task<WebSocketCloseFrame?, any Error> {
            let handlerConfiguration = WebSocketHandler.Configuration(
                extensions: [],
                autoPing: configuration.pingInterval.map { .enabled(timePeriod: $0) } ?? .disabled,
                closeTimeout: .seconds(5),
                validateUTF8: false,  // validated here, to close with 1007 and say so
                maxFrameSize: configuration.maxMessageSize)
            return Task {
                defer { lent() }
                return try await WebSocketHandler.handle(
                    type: .client, configuration: handlerConfiguration, asyncChannel: channel,
                    context: Context(logger: logger)
                ) { inbound, outbound, _ in
                    await withCheckedContinuation { release in
                        let releaseNow = state.withLock { state in
                            state.inbound = inbound.makeAsyncIterator()
                            state.outbound = outbound
                            state.release = release
                            return state.released
                        }
                        lent()
                        if releaseNow { release.resume() }
                    }
                }
            }
        }

        var closure: WebSocketClosure? { state.withLock { $0.closure } }

        func receive() async throws -> Strata.WebSocketMessage? {
            let taken = state.withLock { state -> WebSocketInboundStream.AsyncIterator? in
                guard let inbound = state.inbound else { return nil }
                state.inbound = nil
                state.reading = true
                return inbound
            }
            guard var inbound = taken else {
                // Closed, or another task reads (one reader at a time).
                if let closure = await ended() { throw WebSocketError.closed(closure) }
                return nil
            }
            let outcome: ReadOutcome
            do {
                outcome = try await nextMessage(&inbound).map(ReadOutcome.message) ?? .peerClosed
            } catch {
                outcome = Task.isCancelled ? .cancelled : .failed(error)
            }
            let waiting = state.withLock { state in
                state.inbound = inbound
                state.reading = false
                defer { state.waitingForReader = [] }
                return state.waitingForReader
            }
            for waiter in waiting { waiter.resume() }
            switch outcome {
            case .message(let message):
                return message
            case .peerClosed:
                if Task.isCancelled { fallthrough }
                // Without the close handshake (a dropped connection, a peer that stopped
                // answering pings), the end is a failure, not the end of the messages.
                guard let closure = await ended(), closure.code == .abnormalClosure else { return nil }
                throw TransportError(.connectionLost, detail: "the WebSocket ended without a close frame")
            case .cancelled:
                // The reader gave up: the peer is told at once, the close handshake goes on without it.
                Task { await self.close(code: .goingAway, reason: nil) }
                throw CancellationError()
            case .failed(let error as WebSocketError):
                await ended()
                throw error
            case .failed(let error as NIOWebSocketError):
                // NIO's decoder refused a frame: one over the limit, or one the protocol forbids.
                let tooLarge = error == .invalidFrameLength
                let closure = WebSocketClosure(code: tooLarge ? .messageTooBig : .protocolError, byPeer: false)
                await close(code: closure.code, reason: nil)
                throw tooLarge ? WebSocketError.messageTooLarge(limit: maxMessageSize) : WebSocketError.closed(closure)
            case .failed(let error):
                await ended()
                throw TransportError(.connectionLost, underlying: error)
            }
        }

        /// The next message, reassembled from its frames; `nil` when the peer closed.
        private func nextMessage(_ inbound: inout WebSocketInboundStream.AsyncIterator) async throws
            -> Strata.WebSocketMessage?
        {
            var isText: Bool?
            var bytes = ByteBuffer()
            while let frame = try await inbound.next() {
                switch (frame.opcode, isText) {
                case (.text, nil): isText = true
                case (.binary, nil): isText = false
                case (.continuation, .some): break
                default: try await fail(.protocolError, reason: "unexpected \(frame.opcode) frame")
                }
                guard bytes.readableBytes + frame.data.readableBytes <= maxMessageSize else {
                    try await fail(.messageTooBig, reason: "message over \(maxMessageSize) bytes")
                }
                bytes.writeImmutableBuffer(frame.data)
                guard frame.fin else { continue }
                guard isText == true else { return .binary(Data(bytes.readableBytesView)) }
                guard let text = String(bytes: bytes.readableBytesView, encoding: .utf8) else {
                    try await fail(.invalidPayload, reason: "invalid UTF-8")
                }
                return .text(text)
            }
            return nil
        }

        /// Sends the close frame with `code` because of what the peer sent, and throws the
        /// error that says so (the handshake ends once the read gave the frames back).
        private func fail(_ code: WebSocketCloseCode, reason: String) async throws -> Never {
            await sendClose(code: code, reason: reason)
            if code == .messageTooBig { throw WebSocketError.messageTooLarge(limit: maxMessageSize) }
            throw WebSocketError.closed(WebSocketClosure(code: code, reason: reason, byPeer: false))
        }

        func send(_ message: Strata.WebSocketMessage) async throws {
            let outbound = state.withLock { state -> WebSocketOutboundWriter? in
                state.closedHere == nil && state.closure == nil ? state.outbound : nil
            }
            guard let outbound else {
                throw WebSocketError.closed(
                    state.withLock { $0.closure ?? $0.closedHere }
                        ?? WebSocketClosure(code: .abnormalClosure, byPeer: true))
            }
            do {
                switch message {
                case .text(let text): try await outbound.write(.text(text))
                case .binary(let data): try await outbound.writeBinaryMessage(ByteBuffer(data: data))
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw TransportError(.connectionLost, underlying: error)
            }
        }

        func close(code: WebSocketCloseCode, reason: String?) async {
            await sendClose(code: code, reason: reason)
            await ended()
        }

        /// Sends the close frame once, whoever asks first.
        private func sendClose(code: WebSocketCloseCode, reason: String?) async {
            let outbound = state.withLock { state -> WebSocketOutboundWriter? in
                guard state.closedHere == nil, state.closure == nil else { return nil }
                state.closedHere = WebSocketClosure(code: code, reason: reason, byPeer: false)
                return state.outbound
            }
            try? await outbound?.close(WebSocketErrorCode(codeNumber: Int(code.rawValue)), reason: reason)
        }

        /// Waits for a read that holds the frames to end, lets the handler return, waits for
        /// the connection to end, and returns how it ended (recorded once).
        @discardableResult
        private func ended() async -> WebSocketClosure? {
            await withCheckedContinuation { continuation in
                let readerDone = state.withLock { state in
                    guard state.reading else { return true }
                    state.waitingForReader.append(continuation)
                    return false
                }
                if readerDone { continuation.resume() }
            }
            let release = state.withLock { state in
                state.released = true
                defer { state.release = nil }
                return state.release
            }
            release?.resume()
            let result = await running.result
            return state.withLock { state in
                if let closure = state.closure { return closure }
                let closure =
                    if let here = state.closedHere {
                        here
                    } else if case .success(let frame?) = result {
                        WebSocketClosure(
                            code: WebSocketCloseCode(rawValue: UInt16(webSocketErrorCode: frame.closeCode)),
                            reason: frame.reason, byPeer: true)
                    } else {
                        WebSocketClosure(code: .abnormalClosure, byPeer: true)
                    }
                state.closure = closure
                return closure
            }
        }

        /// What swift-websocket's handler is given: the connection's logger.
        private struct Context: WebSocketContext {
            let logger: Logger
        }
    }
#endif
