#if !canImport(FoundationNetworking)
    import Foundation
    import Strata

    /// An open WebSocket over a `URLSessionWebSocketTask` (Apple platforms). `URLSession` runs
    /// the protocol — it answers the peer's pings, reassembles messages within the task's
    /// `maximumMessageSize` and runs the close handshake — and this channel puts its calls and
    /// failures in ``WebSocketChannel``'s terms, as the AsyncHTTPClient transport's SwiftNIO
    /// channel does:
    ///
    /// - ``receive()`` returns `nil` once the peer closed the connection with a close frame (on
    ///   every later read too), and when this side closed it while the read waited; a read that
    ///   starts after this side closed throws ``WebSocketError/closed(_:)``. A connection that
    ///   ended without a close frame (or was dropped) throws a ``TransportError`` of kind
    ///   ``TransportError/Kind/connectionLost``; a message over the limit throws
    ///   ``WebSocketError/messageTooLarge(limit:)`` and the connection ends with 1009.
    ///   Cancelling the reading task closes the connection with 1001 and throws
    ///   `CancellationError`.
    /// - ``close(code:reason:)`` sends the close frame once and waits, at most 5 seconds, for
    ///   the task to end; a peer that has not finished the handshake by then is dropped.
    /// - ``closure`` is recorded once: by this side's close, or by the read that finds the end.
    ///
    /// What `URLSession` reports about the task arrives through the task's own delegate, a
    /// ``WebSocketTaskEvents``; what this side decided (its close, a drop) is in `state`, a
    /// ``Locked``, so the class is `Sendable` as it is.
    final class URLSessionWebSocketChannel: WebSocketChannel, Sendable {
        private struct State {
            /// How the connection ended, once it did (this side's close is recorded when sent).
            var closure: WebSocketClosure?
            /// ``drop()`` was called: the end is abnormal, whatever the task reports after.
            var dropped = false
        }

        /// How long ``close(code:reason:)`` waits for the close handshake, and a failed read
        /// for `URLSession` to tell how the connection ended.
        static let endTimeout: Duration = .seconds(5)
        /// The most bytes of a close reason: a control frame's payload holds 125, two of them
        /// the code (RFC 6455, section 5.5).
        static let maxCloseReasonBytes = 123

        /// The open task.
        let task: URLSessionWebSocketTask
        private let events: WebSocketTaskEvents
        private let maxMessageSize: Int
        private let state = Locked(State())

        /// The channel of `task`, opened, whose delegate is `events`; `maxMessageSize` is the
        /// task's `maximumMessageSize`, for the error that names it.
        init(task: URLSessionWebSocketTask, events: WebSocketTaskEvents, maxMessageSize: Int) {
            self.task = task
            self.events = events
            self.maxMessageSize = maxMessageSize
        }

        var closure: WebSocketClosure? { state.withLock { $0.closure } }

        func receive() async throws -> WebSocketMessage? {
            if let closure = state.withLock({ $0.closure }) { return try Self.readAfterEnd(closure) }
            if Task.isCancelled {
                startClose(code: .goingAway, reason: nil)
                throw CancellationError()
            }
            let message: URLSessionWebSocketTask.Message
            do {
                message = try await withTaskCancellationHandler {
                    try await self.task.receive()
                } onCancel: {
                    // The reader gave up: the peer is told at once, and the pending read fails.
                    self.startClose(code: .goingAway, reason: nil)
                }
            } catch {
                return try await readFailed(error)
            }
            switch message {
            case .string(let text):
                return .text(text)
            case .data(let data):
                return .binary(data)
            @unknown default:
                await close(code: .unsupportedData, reason: nil)
                throw WebSocketError.closed(closure ?? WebSocketClosure(code: .unsupportedData, byPeer: false))
            }
        }

        /// What a read that starts after the end gets: `nil` after the peer's close frame,
        /// ``WebSocketError/closed(_:)`` after this side's close, and a ``TransportError`` after
        /// an end without a close frame.
        private static func readAfterEnd(_ closure: WebSocketClosure) throws -> WebSocketMessage? {
            guard closure.byPeer else { throw WebSocketError.closed(closure) }
            guard closure.code != .abnormalClosure else {
                throw TransportError(.connectionLost, detail: "the WebSocket ended without a close frame")
            }
            return nil
        }

        /// The outcome of a read that `URLSession` failed with `error`.
        private func readFailed(_ error: any Error) async throws -> WebSocketMessage? {
            if Task.isCancelled {
                startClose(code: .goingAway, reason: nil)
                throw CancellationError()
            }
            if Self.isMessageTooLarge(error) {
                // URLSession fails the read and the task; the close records 1009 either way.
                await close(code: .messageTooBig, reason: nil)
                throw WebSocketError.messageTooLarge(limit: maxMessageSize)
            }
            // The read can fail before the delegate hears of the close frame or of the end.
            await events.wait(atMost: Self.endTimeout) { $0.completed || $0.closeFrame != nil }
            let closure =
                ending(recording: true, readFailed: true) ?? WebSocketClosure(code: .abnormalClosure, byPeer: true)
            // This side closed (or gave up) while the read waited: the end of the messages.
            guard closure.byPeer else { return nil }
            guard closure.code != .abnormalClosure else {
                if !events.facts.completed { task.cancel() }
                throw TransportError(
                    .connectionLost, underlying: error, detail: "the WebSocket ended without a close frame")
            }
            return nil
        }

        func send(_ message: WebSocketMessage) async throws {
            if let closure = ending(recording: false) { throw WebSocketError.closed(closure) }
            let outgoing: URLSessionWebSocketTask.Message =
                switch message {
                case .text(let text): .string(text)
                case .binary(let data): .data(data)
                }
            do {
                try await task.send(outgoing)
            } catch  where StrataError.isCancellation(error) {
                throw error
            } catch {
                if let closure = ending(recording: false) { throw WebSocketError.closed(closure) }
                throw TransportError(.connectionLost, underlying: error)
            }
        }

        func ping(_ pong: @escaping @Sendable () -> Void) async throws {
            if let closure = ending(recording: false) { throw WebSocketError.closed(closure) }
            // Returns at once; the handler runs when the pong arrives, or with an error when the
            // connection ends first (no pong then: the socket's keep-alive notices).
            task.sendPing(pongReceiveHandler: { error in
                if error == nil { pong() }
            })
        }

        func drop() {
            state.withLock { $0.dropped = true }
            task.cancel()
        }

        func close(code: WebSocketCloseCode, reason: String?) async {
            startClose(code: code, reason: reason)
            await events.wait(atMost: Self.endTimeout) { $0.completed }
            // A peer that did not finish the close handshake in time is dropped (not when the
            // wait ended because the calling task was cancelled).
            if !events.facts.completed, !Task.isCancelled { task.cancel() }
        }

        /// Records this side's closure and sends the close frame, once. When the peer's close
        /// frame came first, that is how the connection ended, and nothing is sent.
        private func startClose(code: WebSocketCloseCode, reason: String?) {
            let facts = events.facts
            let sends = state.withLock { state -> Bool in
                guard state.closure == nil else { return false }
                if !state.dropped, let frame = facts.closeFrame {
                    state.closure = Self.peerClosure(code: frame.code, reason: frame.reason)
                    return false
                }
                state.closure = WebSocketClosure(code: code, reason: reason, byPeer: false)
                return true
            }
            guard sends else { return }
            // The initialiser is failable but, URLSessionWebSocketTask.CloseCode being an open
            // C enum, keeps any code (an application's 4000–4999 too).
            task.cancel(
                with: URLSessionWebSocketTask.CloseCode(rawValue: Int(code.rawValue)) ?? .normalClosure,
                reason: Self.closeReasonData(reason))
        }

        /// How the connection ended: as recorded, or else as the task reports it (a drop, the
        /// peer's close frame, a completion without one; also a failed read, with `readFailed`),
        /// recorded when `recording`; `nil` while the connection is open.
        ///
        /// Only a read records the peer's close: messages that arrived before the close frame
        /// are still read first.
        private func ending(recording: Bool, readFailed: Bool = false) -> WebSocketClosure? {
            let facts = events.facts
            let code = task.closeCode
            let reason = task.closeReason
            return state.withLock { state in
                if let closure = state.closure { return closure }
                let closure: WebSocketClosure
                if state.dropped {
                    closure = WebSocketClosure(code: .abnormalClosure, byPeer: true)
                } else if let frame = facts.closeFrame {
                    closure = Self.peerClosure(code: frame.code, reason: frame.reason)
                } else if code != .invalid {
                    closure = Self.peerClosure(code: code.rawValue, reason: reason)
                } else if facts.completed || readFailed {
                    closure = WebSocketClosure(code: .abnormalClosure, byPeer: true)
                } else {
                    return nil
                }
                if recording { state.closure = closure }
                return closure
            }
        }

        /// The peer's close, from the code and reason `URLSession` reports: a close frame
        /// without a code is 1005, as RFC 6455 reports it; the reason is read as UTF-8.
        private static func peerClosure(code: Int, reason: Data?) -> WebSocketClosure {
            let number = code == URLSessionWebSocketTask.CloseCode.invalid.rawValue ? 1005 : code
            return WebSocketClosure(
                code: WebSocketCloseCode(rawValue: UInt16(clamping: number)),
                reason: reason.flatMap { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) },
                byPeer: true)
        }

        /// `reason` as a close frame carries it: UTF-8, shortened (by whole characters) to
        /// ``maxCloseReasonBytes``.
        private static func closeReasonData(_ reason: String?) -> Data? {
            guard var reason else { return nil }
            while reason.utf8.count > maxCloseReasonBytes { reason.removeLast() }
            return Data(reason.utf8)
        }

        /// Whether `error` is how `URLSession` fails a read over `maximumMessageSize`:
        /// `EMSGSIZE` ("Message too long") in `NSPOSIXErrorDomain`, itself or underneath.
        private static func isMessageTooLarge(_ error: any Error) -> Bool {
            let nsError = error as NSError
            let errors = [nsError, nsError.userInfo[NSUnderlyingErrorKey] as? NSError].compactMap { $0 }
            return errors.contains {
                $0.domain == NSPOSIXErrorDomain && $0.code == Int(POSIXErrorCode.EMSGSIZE.rawValue)
            }
        }
    }

    /// The delegate of one WebSocket task (`URLSessionTask.delegate`, which receives the task's
    /// events before the session's delegate): it ends the opening handshake — on
    /// `urlSession(_:webSocketTask:didOpenWithProtocol:)`, or when the task completes first —
    /// and records what the open channel needs to know: the peer's close frame and the task's
    /// end, which wake the channel's waits.
    ///
    /// It leaves challenges and redirects to the session's delegate. The handshake waits on a
    /// ``SessionTaskRelay``; on a session whose delegate is a ``SessionDelegate``, that delegate
    /// has the relay registered, and the task's completion is passed on to it: it classifies
    /// the failure as for any task (a server trust it refused is a `.tls` error with its
    /// `TLSFailure`) and forgets the task.
    ///
    /// Everything mutable is in `state`, a ``Locked``; the task is not held (the task holds its
    /// delegate), so nothing here keeps it alive.
    final class WebSocketTaskEvents: NSObject, URLSessionWebSocketDelegate, Sendable {
        /// A close frame as the delegate was told of it.
        struct CloseFrame: Sendable {
            /// The close code's number (`0`, `URLSessionWebSocketTask.CloseCode.invalid`, when
            /// the frame had none).
            let code: Int
            let reason: Data?
        }

        /// What the delegate was told of the task so far.
        struct Facts: Sendable {
            /// The handshake succeeded.
            var opened = false
            /// The subprotocol the task reported on opening.
            var negotiatedProtocol: String?
            /// A close frame: the peer's, or (`URLSession` reports it too) this side's.
            var closeFrame: CloseFrame?
            /// The task completed: the connection is gone.
            var completed = false
        }

        private struct Waiter {
            let done: @Sendable (Facts) -> Bool
            let continuation: CheckedContinuation<Void, Never>
        }

        private struct State {
            var facts = Facts()
            /// The opening handshake's relay, until it is answered.
            var handshake: SessionTaskRelay?
            var waiters: [Int: Waiter] = [:]
            /// The waits under way, and those of them ended early (their bound or a
            /// cancellation), perhaps before they were registered.
            var active: Set<Int> = []
            var woken: Set<Int> = []
            var nextWaiter = 0
        }

        private let state: Locked<State>
        /// The session's delegate when it is a ``SessionDelegate``, which has the handshake's
        /// relay registered.
        private let sessionDelegate: SessionDelegate?

        /// The delegate of a task whose handshake waits on `handshake`; `sessionDelegate` is the
        /// session's, when it is a ``SessionDelegate`` (the relay is registered with it).
        init(handshake: SessionTaskRelay, sessionDelegate: SessionDelegate?) {
            self.state = Locked(State(handshake: handshake))
            self.sessionDelegate = sessionDelegate
            super.init()
        }

        /// What the delegate was told so far.
        var facts: Facts { state.withLock { $0.facts } }

        /// Waits until `done` holds for the facts, `bound` has passed, or the calling task is
        /// cancelled, whichever comes first.
        func wait(atMost bound: Duration, until done: @escaping @Sendable (Facts) -> Bool) async {
            let id = state.withLock { state in
                defer { state.nextWaiter += 1 }
                state.active.insert(state.nextWaiter)
                return state.nextWaiter
            }
            let alarm = DeadlineAlarm(deadline: ContinuousClock.now + bound) { self.wake(id) }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if done(state.facts) || state.woken.contains(id) { return true }
                        state.waiters[id] = Waiter(done: done, continuation: continuation)
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                self.wake(id)
            }
            alarm.cancel()
            state.withLock { state in
                state.active.remove(id)
                state.woken.remove(id)
            }
        }

        /// Ends the wait `id` early (its bound passed, or its task was cancelled).
        private func wake(_ id: Int) {
            let waiter = state.withLock { state -> Waiter? in
                guard state.active.contains(id) else { return nil }
                state.woken.insert(id)
                return state.waiters.removeValue(forKey: id)
            }
            waiter?.continuation.resume()
        }

        /// Records what the delegate was told, and resumes the waits it satisfies.
        private func update(_ change: (inout Facts) -> Void) {
            let ready = state.withLock { state -> [Waiter] in
                change(&state.facts)
                let facts = state.facts
                let ready = state.waiters.filter { $0.value.done(facts) }
                for id in ready.keys { state.waiters[id] = nil }
                return Array(ready.values)
            }
            for waiter in ready { waiter.continuation.resume() }
        }

        /// The handshake succeeded: the relay answers the caller, who reads the head from the
        /// task (the relay takes a response; a placeholder stands in should the task have none).
        func urlSession(
            _ session: URLSession,
            webSocketTask: URLSessionWebSocketTask,
            didOpenWithProtocol negotiated: String?
        ) {
            let handshake = state.withLock { state in
                state.facts.opened = true
                state.facts.negotiatedProtocol = negotiated
                defer { state.handshake = nil }
                return state.handshake
            }
            guard let handshake else { return }
            let placeholder = webSocketTask.originalRequest?.url.map {
                URLResponse(url: $0, mimeType: nil, expectedContentLength: -1, textEncodingName: nil)
            }
            if let response = webSocketTask.response ?? placeholder {
                handshake.receive(response)
            } else {
                handshake.stop(
                    throwing: TransportError(
                        .malformedResponse, detail: "URLSession opened a WebSocket without a response"))
            }
        }

        /// A close frame arrived (or, `URLSession` reports it too, this side's went out).
        func urlSession(
            _ session: URLSession,
            webSocketTask: URLSessionWebSocketTask,
            didCloseWith closeCode: URLSessionWebSocketTask.CloseCode,
            reason: Data?
        ) {
            update { $0.closeFrame = CloseFrame(code: closeCode.rawValue, reason: reason) }
        }

        /// The task completed: a handshake still waiting ends with `error` (classified by the
        /// session's ``SessionDelegate`` when there is one), and the channel learns the
        /// connection is gone.
        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let handshake = state.withLock { state in
                defer { state.handshake = nil }
                return state.handshake
            }
            if let sessionDelegate {
                // Whether or not URLSession calls the session's delegate as well, the relay
                // and a refused server trust are taken from it once.
                sessionDelegate.urlSession(session, task: task, didCompleteWithError: error)
            } else {
                handshake?.complete(error, response: task.response)
            }
            update { $0.completed = true }
        }
    }
#endif
