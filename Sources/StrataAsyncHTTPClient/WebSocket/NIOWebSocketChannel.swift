#if WebSocket
    import Foundation
    import Logging
    import NIOCore
    import NIOWebSocket
    import Strata
    import CompressNIO
    import WSCompression
    @_spi(WSInternal) import WSCore

    /// An open WebSocket over SwiftNIO. swift-websocket's handler runs the protocol (answers
    /// to pings, the close handshake, frame validation, compression) in a task of its own and lends this
    /// channel its inbound frames and its outbound writer until the connection ends.
    /// Messages are reassembled here, in the reading task, at the reader's pace, within the
    /// size bound.
    ///
    /// The handler is let go (and so the connection closes) only while no read holds the
    /// frames: swift-websocket then reads the rest of the close handshake itself, from the
    /// same inbound sequence, which takes one reader at a time.
    ///
    /// Everything mutable is in `state`, a ``Locked`` (which guards what is not `Sendable`
    /// on its own: the inbound frames are taken out of it by the one reading task and put
    /// back after each message), so the class is `Sendable` as it is.
    final class NIOWebSocketChannel: WebSocketChannel, Sendable {
        private struct State {
            /// The frames, while no read holds them.
            var inbound: Frames?
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
        /// The connection, to drop it.
        private let connection: any Channel
        private let frames: FrameRelay
        /// The task running swift-websocket's handler; its value is the peer's close frame.
        private let running: Task<WebSocketCloseFrame?, any Error>

        /// Starts the protocol on `channel` (upgraded by `head`, its frames watched) and
        /// returns once its frames are lent.
        /// - Throws: when `head` accepts an extension this side did not offer or cannot run.
        static func start(
            _ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>,
            head: HTTPResponse,
            frames: FrameRelay,
            configuration: WebSocketConfiguration,
            logger: Logger
        ) async throws -> NIOWebSocketChannel {
            let extensions: [any WebSocketExtension]
            do {
                extensions =
                    configuration.usesCompression
                    ? try [compression(configuration)].buildClientExtensions(from: head.headerFields).map {
                        BoundedInflation(base: $0)
                    } : []
            } catch {
                try? await channel.channel.close()
                throw TransportError(.malformedResponse, underlying: error)
            }
            let state = Locked(State())
            let (lent, lend) = AsyncStream.makeStream(of: Void.self)
            let running = run(
                channel, extensions: extensions, state: state, configuration: configuration, logger: logger
            ) {
                lend.finish()
            }
            for await _ in lent {}
            return NIOWebSocketChannel(
                state: state, running: running, connection: channel.channel, frames: frames,
                maxMessageSize: configuration.maxMessageSize)
        }

        private init(
            state: Locked<State>, running: Task<WebSocketCloseFrame?, any Error>, connection: any Channel,
            frames: FrameRelay, maxMessageSize: Int
        ) {
            self.state = state
            self.running = running
            self.connection = connection
            self.frames = frames
            self.maxMessageSize = maxMessageSize
        }

        /// permessage-deflate as `configuration` bounds it: an inflated frame no larger than a
        /// message may be.
        static func compression(_ configuration: WebSocketConfiguration) -> any WebSocketExtensionBuilder {
            WebSocketExtensionFactory.perMessageDeflate(maxDecompressedFrameSize: configuration.maxMessageSize).build()
        }

        /// Runs swift-websocket's handler; `lent` is called once the frames are in `state`
        /// (or the handler ended without lending them).
        private static func run(
            _ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>,
            extensions: [any WebSocketExtension],
            state: Locked<State>,
            configuration: WebSocketConfiguration,
            logger: Logger,
            lent: @escaping @Sendable () -> Void
        ) -> Task<WebSocketCloseFrame?, any Error> {
            let handlerConfiguration = WebSocketHandler.Configuration(
                extensions: extensions,
                autoPing: .disabled,  // the socket pings, through ping(_:)
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
                            state.inbound = Frames(inbound.makeAsyncIterator())
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
            let taken = state.withLock { state -> Frames? in
                guard let inbound = state.inbound.take() else { return nil }
                state.reading = true
                return inbound
            }
            guard let inbound = taken else {
                // Closed, or another task reads (one reader at a time).
                if let closure = await ended() { throw WebSocketError.closed(closure) }
                return nil
            }
            let outcome: ReadOutcome
            do {
                outcome = try await nextMessage(inbound).map(ReadOutcome.message) ?? .peerClosed
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
                guard let closure = await ended() else { return nil }
                // Without the close handshake (a dropped connection, a peer that stopped
                // answering pings), the end is a failure, not the end of the messages.
                if closure.code == .abnormalClosure {
                    throw TransportError(.connectionLost, detail: "the WebSocket ended without a close frame")
                }
                // swift-websocket's handler closed because of what the peer sent: say why.
                guard !closure.byPeer, state.withLock({ $0.closedHere == nil }) else { return nil }
                if closure.code == .messageTooBig { throw WebSocketError.messageTooLarge(limit: maxMessageSize) }
                throw WebSocketError.closed(closure)
            case .cancelled:
                // The reader gave up: the peer is told at once, the close handshake goes on without it.
                Task { await self.close(code: .goingAway, reason: nil) }
                throw CancellationError()
            case .failed(let error as WebSocketError):
                // Refused here (a frame the protocol forbids, seen by `FrameWatch`): the peer is
                // told why. A close frame already sent is not sent again.
                if case .closed(let closure) = error, !closure.byPeer {
                    await close(code: closure.code, reason: closure.reason)
                } else {
                    await ended()
                }
                throw error
            case .failed(let error as NIOWebSocketError):
                // NIO's decoder refused a frame: one over the limit, or one the protocol forbids.
                let tooLarge = error == .invalidFrameLength
                let closure = WebSocketClosure(code: tooLarge ? .messageTooBig : .protocolError, byPeer: false)
                await close(code: closure.code, reason: nil)
                throw tooLarge ? WebSocketError.messageTooLarge(limit: maxMessageSize) : WebSocketError.closed(closure)
            case .failed(let error):
                // A failure after the peer's close frame is the end of its close handshake
                // (the connection went before this side's answer): the peer closed.
                if let closure = await ended(), closure.byPeer, closure.code != .abnormalClosure { return nil }
                throw TransportError(.connectionLost, underlying: error)
            }
        }

        /// The next message, reassembled from its frames; `nil` when the peer closed. Inlined
        /// into `receive()`, its one caller: an async call less a message.
        @inline(__always)
        private func nextMessage(_ inbound: Frames) async throws
            -> Strata.WebSocketMessage?
        {
            var isText: Bool?
            // A message in one frame is read from the frame's own bytes; fragments gather here.
            var gathered: ByteBuffer?
            while let frame = try await inbound.iterator.next() {
                switch (frame.opcode, isText) {
                case (.text, nil): isText = true
                case (.binary, nil): isText = false
                case (.continuation, .some): break
                default: try await fail(.protocolError, reason: "unexpected \(frame.opcode) frame")
                }
                guard (gathered?.readableBytes ?? 0) + frame.data.readableBytes <= maxMessageSize else {
                    try await fail(.messageTooBig, reason: "message over \(maxMessageSize) bytes")
                }
                guard frame.fin else {
                    _ = gathered.setOrWriteImmutableBuffer(frame.data)
                    continue
                }
                let bytes: ByteBuffer
                if var whole = gathered {
                    whole.writeImmutableBuffer(frame.data)
                    bytes = whole
                } else {
                    bytes = frame.data
                }
                guard isText == true else { return .binary(Data(bytes.readableBytesView)) }
                guard let text = Self.text(bytes) else { try await fail(.invalidPayload, reason: "invalid UTF-8") }
                return .text(text)
            }
            return nil
        }

        /// `bytes` as text, if they are valid UTF-8.
        private static func text(_ bytes: ByteBuffer) -> String? {
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                String(validating: bytes.readableBytesView, as: UTF8.self)
            } else {
                String(bytes: bytes.readableBytesView, encoding: .utf8)
            }
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
            } catch  where StrataError.isCancellation(error) {
                throw error
            } catch {
                throw TransportError(.connectionLost, underlying: error)
            }
        }

        func ping(_ pong: @escaping @Sendable () -> Void) async throws {
            let outbound = state.withLock { state in state.closure == nil ? state.outbound : nil }
            guard let outbound else {
                throw WebSocketError.closed(closure ?? WebSocketClosure(code: .abnormalClosure, byPeer: true))
            }
            var data = ByteBuffer()
            data.writeInteger(UInt64.random(in: .min ... .max))
            frames.awaitPong(data, pong: pong)
            do {
                try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .ping, data: data)))
            } catch {
                throw TransportError(.connectionLost, underlying: error)
            }
        }

        func drop() {
            connection.close(promise: nil)
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
            let peerAnswered = if case .success(.some) = await running.result { true } else { false }
            return state.withLock { state in
                if let closure = state.closure { return closure }
                let closure =
                    if let here = state.closedHere {
                        here
                    } else if let first = frames.firstClose, !first.sentHere || peerAnswered {
                        // Whoever sent the first close frame closed: the peer's counts even if
                        // the connection went before the handshake completed; this side's
                        // (swift-websocket's own) once the peer answered it.
                        WebSocketClosure(
                            code: WebSocketCloseCode(rawValue: first.code ?? WebSocketCloseCode.normalClosure.rawValue),
                            reason: first.reason, byPeer: !first.sentHere)
                    } else {
                        WebSocketClosure(code: .abnormalClosure, byPeer: true)
                    }
                state.closure = closure
                return closure
            }
        }

        /// permessage-deflate with its bound said the protocol's way: an inflated frame past
        /// it closes with 1009 (swift-websocket would close with 1011).
        private struct BoundedInflation: WebSocketExtension {
            let base: any WebSocketExtension
            var name: String { base.name }
            var reservedBits: WebSocketFrame.ReservedBits { base.reservedBits }

            func processReceivedFrame(_ frame: WebSocketFrame, context: WebSocketExtensionContext) async throws
                -> WebSocketFrame
            {
                do {
                    return try await base.processReceivedFrame(frame, context: context)
                } catch let error as CompressNIOError where error == .bufferOverflow {
                    throw NIOWebSocketError.invalidFrameLength
                }
            }

            func processFrameToSend(_ frame: WebSocketFrame, context: WebSocketExtensionContext) async throws
                -> WebSocketFrame
            {
                try await base.processFrameToSend(frame, context: context)
            }

            func shutdown() async {
                await base.shutdown()
            }
        }

        /// swift-websocket's inbound frames, boxed: its iterator holds an `AsyncStream`
        /// iterator, whose size is only known at run time, so every copy of it in an async
        /// function took allocations and metadata lookups (eight `swift_task_alloc` a message
        /// in `receive()` under callgrind, `--callgrind-case websocket-strata`); the box
        /// moves as a reference. Only the reading task that took it from `state` touches it.
        private final class Frames {
            var iterator: WebSocketInboundStream.AsyncIterator

            init(_ iterator: WebSocketInboundStream.AsyncIterator) {
                self.iterator = iterator
            }
        }

        /// What swift-websocket's handler is given: the connection's logger.
        private struct Context: WebSocketContext {
            let logger: Logger
        }
    }
#endif
