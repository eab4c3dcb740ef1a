#if canImport(FoundationNetworking)
    import HTTPTypes
    import Strata

    /// On Linux, `URLSessionWebSocketTask` needs a libcurl built with WebSocket support,
    /// which the distributions' libcurl is not (its tasks fail with "WebSockets not supported
    /// by libcurl"): this transport refuses to open one, and says so. `Networker()` on Linux
    /// runs over AsyncHTTPClient, which opens WebSockets with the `WebSocket` trait.
    extension URLSessionTransport: WebSocketTransport {
        /// Throws `WebSocketError.unsupported(reason:)`: see above.
        public func openWebSocket(
            _ request: HTTPRequest,
            configuration: WebSocketConfiguration,
            deadline: ContinuousClock.Instant?
        ) async throws -> WebSocketHandshake {
            throw WebSocketError.unsupported(reason: Self.webSocketsUnsupported)
        }

        /// Why this transport opens no WebSockets here.
        static let webSocketsUnsupported =
            "URLSession on Linux (FoundationNetworking) needs a libcurl with WebSocket support, which this system's lacks; use AsyncHTTPClientTransport with the WebSocket trait"
    }
#else
    import Foundation
    import HTTPTypes
    import Strata

    /// WebSockets over `URLSessionWebSocketTask`, on Apple platforms.
    ///
    /// - **The handshake is the request the client's steps made.** Its header fields go into
    ///   the task's `URLRequest` as they are, the offered subprotocols included: a
    ///   `Sec-WebSocket-Protocol` field is how `URLSession` takes them with a request (the
    ///   field is added from `WebSocketConfiguration.subprotocols` when the request lacks
    ///   it). An `http` or `https` request goes to `ws` or `wss`, the schemes the task takes.
    ///   The session's delegate decides redirects and challenges as for any request: on a
    ///   session the transport created, redirects are refused and its `ServerTrust` applies.
    /// - **Deadlines.** `deadline` bounds the handshake: a timer in Strata's scheduler cancels
    ///   the task then, and the call throws `TransportError.Kind.timedOut`; cancelling the
    ///   calling task cancels the task and throws `CancellationError`. The deadline does not
    ///   become the request's `timeoutInterval`, as it does for other calls: the connection
    ///   outlives the call.
    /// - **A refused handshake** (a status other than 101) returns the head without its body,
    ///   which `URLSession` does not deliver for a WebSocket task.
    /// - **The connection.** `WebSocketConfiguration.maxMessageSize` is the task's
    ///   `maximumMessageSize`. `WebSocketConfiguration.usesCompression` is ignored:
    ///   `URLSessionWebSocketTask` offers no permessage-deflate, and messages go uncompressed.
    ///   Keep-alive and idleness are the `WebSocket`'s, which pings through the channel.
    /// - **Background sessions** run no WebSocket tasks: a transport over one throws
    ///   `WebSocketError.unsupported(reason:)`.
    extension URLSessionTransport: WebSocketTransport {
        /// Sends `request` as the opening handshake through the session, within `deadline`: the
        /// open channel for a `101 Switching Protocols`, or the head (without a body) for any
        /// other status. See the extension's documentation.
        ///
        /// `configuration.usesCompression` is ignored: `URLSessionWebSocketTask` does not
        /// compress.
        /// - Throws: `CancellationError` when the calling task is cancelled,
        ///   `WebSocketError.unsupported(reason:)` on a background session, and
        ///   `TransportError` for failures below HTTP (`TransportError.Kind.timedOut` at the
        ///   deadline).
        public func openWebSocket(
            _ request: HTTPRequest,
            configuration: WebSocketConfiguration,
            deadline: ContinuousClock.Instant?
        ) async throws -> WebSocketHandshake {
            try Task.checkCancellation()
            guard session.configuration.identifier == nil else {
                throw WebSocketError.unsupported(reason: Self.backgroundSessionsOpenNoWebSockets)
            }
            let urlRequest = try Self.makeURLRequest(
                Self.webSocketRequest(request, offering: configuration.subprotocols))
            if let deadline {
                // Only to refuse a deadline already passed: a timeoutInterval would outlive
                // the handshake.
                _ = try Self.timeoutInterval(until: deadline)
            }
            let task = session.webSocketTask(with: urlRequest)
            task.maximumMessageSize = configuration.maxMessageSize
            // The relay only waits for the handshake: a WebSocket task delivers no body to it.
            let handshake = SessionTaskRelay(bufferLimit: 0)
            let sessionDelegate = owner.delegate
            let events = WebSocketTaskEvents(handshake: handshake, sessionDelegate: sessionDelegate)
            task.delegate = events
            let alarm = deadline.map {
                DeadlineAlarm(deadline: $0) {
                    handshake.stop(throwing: URLSessionTransport.deadlinePassed, beforeHeadOnly: true)
                }
            }
            defer { alarm?.cancel() }
            do {
                _ = try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        handshake.start(task, continuation: continuation) { relay, task in
                            sessionDelegate?.register(relay, for: task)
                        }
                    }
                } onCancel: {
                    handshake.stop()
                }
            } catch {
                // The deadline and a cancellation end the wait whatever the server answered;
                // any other failure after an answer that is not 101 is the server's refusal.
                let gaveUp = StrataError.isCancellation(error) || StrataError.isTimeout(error)
                if !gaveUp, let refused = try Self.refusal(of: task) { return refused }
                throw error
            }
            guard events.facts.opened else {
                // The task completed without a failure and without opening.
                if let refused = try Self.refusal(of: task) { return refused }
                throw TransportError(.connectionLost, detail: "the WebSocket closed during its opening handshake")
            }
            let head: HTTPResponse
            do {
                head = try Self.upgradeHead(of: task, negotiated: events.facts.negotiatedProtocol)
            } catch {
                task.cancel()
                throw error
            }
            let channel = URLSessionWebSocketChannel(
                task: task, events: events, maxMessageSize: configuration.maxMessageSize)
            return .upgraded(head, channel)
        }

        /// `request` as a `URLSessionWebSocketTask` takes it: `ws` for `http` and `wss` for
        /// `https`, offering `subprotocols` in `Sec-WebSocket-Protocol` unless it offers its own.
        static func webSocketRequest(_ request: HTTPRequest, offering subprotocols: [String]) -> HTTPRequest {
            var request = request
            switch request.scheme?.lowercased() {
            case "http": request.scheme = "ws"
            case "https": request.scheme = "wss"
            default: break
            }
            if !subprotocols.isEmpty, request.headerFields[.secWebSocketProtocol] == nil {
                request.headerFields[.secWebSocketProtocol] = subprotocols.joined(separator: ", ")
            }
            return request
        }

        /// The server's refusal of the upgrade, when the task has a response whose status is
        /// not 101: its head, without a body.
        private static func refusal(of task: URLSessionWebSocketTask) throws -> WebSocketHandshake? {
            guard let response = task.response as? HTTPURLResponse, response.statusCode != 101 else { return nil }
            return .refused(try head(of: response), nil)
        }

        /// The head of an opened socket: the task's response with status 101 (the socket is open,
        /// whatever status it kept), or a bare `101` when it has none; either names `negotiated`
        /// in `Sec-WebSocket-Protocol` when its fields do not.
        private static func upgradeHead(of task: URLSessionWebSocketTask, negotiated: String?) throws -> HTTPResponse {
            var head = HTTPResponse(status: .switchingProtocols)
            if let response = task.response as? HTTPURLResponse {
                head = try Self.head(of: response)
                head.status = .switchingProtocols
            }
            if let negotiated, head.headerFields[.secWebSocketProtocol] == nil {
                head.headerFields[.secWebSocketProtocol] = negotiated
            }
            return head
        }

        /// Why a transport over a background session opens no WebSockets.
        static let backgroundSessionsOpenNoWebSockets =
            "URLSession runs no WebSocket tasks in a background session; use a transport over a default or ephemeral session"
    }
#endif
