import Foundation
import HTTPTypes

extension Networker {
    /// The server-sent events of `endpoint`'s response, across as many connections as it
    /// takes: the sequence connects, checks the response, parses the events as they
    /// arrive, and when the connection drops or the body ends it reconnects, sending
    /// `Last-Event-ID`, and goes on without a seam.
    ///
    /// ```swift
    /// for try await event in networker.events(feedRequest) {
    ///     print(event.id ?? "-", event.data)
    /// }
    /// ```
    ///
    /// Each connection is a call through the client's middleware (authentication,
    /// redirects, logging, the circuit breaker) with `Accept: text/event-stream`. The
    /// call's timeout (``Endpoint/timeout`` or the client's) covers the wait for the
    /// response head; the body has no total deadline, only `idleTimeout` between reads.
    /// When to reconnect is `reconnection`'s (``ReconnectionPolicy``).
    ///
    /// The sequence ends with a ``StrataError``: ``StrataError/Kind/unacceptableStatus``
    /// for a status other than 200, ``StrataError/Kind/unacceptableContentType`` for a
    /// body that is not `text/event-stream`, ``StrataError/Kind/eventStream`` when the
    /// server answers 204 or no reconnection is left (``EventStreamError``),
    /// ``StrataError/Kind/bodyTooLarge`` for an event past `maximumEventSize`, and
    /// ``StrataError/Kind/cancelled`` at once when the task is cancelled (no connection
    /// is made after that).
    /// - Parameters:
    ///   - endpoint: the stream's request; its parse function is not used.
    ///   - maximumEventSize: the most bytes one line, or one event's data, may hold.
    ///   - idleTimeout: how long one read of the body may wait for bytes (comments count,
    ///     which is what servers' keep-alive comments are for); `nil` for no limit.
    ///   - reconnection: when and how often to reconnect.
    public func events<Response>(
        _ endpoint: Endpoint<Response>,
        maximumEventSize: Int = 1024 * 1024,
        idleTimeout: Duration? = .seconds(60),
        reconnection: ReconnectionPolicy = ReconnectionPolicy()
    ) -> ServerSentEventStream {
        let endpoint = endpoint.header(.accept, "text/event-stream").header(.cacheControl, "no-cache")
        return ServerSentEventStream(
            connect: { lastEventID throws(StrataError) in
                let request = lastEventID.map { endpoint.header(.lastEventID, $0) } ?? endpoint
                return try await self.stream(request, idleTimeout: idleTimeout)
            },
            policy: reconnection, budget: reconnectionBudget(reconnection), maximumEventSize: maximumEventSize)
    }

    /// The server-sent events of `request`'s response, across as many connections as it
    /// takes; see ``events(_:maximumEventSize:idleTimeout:reconnection:)``.
    public func events<Route: URLRouteProvider>(
        _ request: RequestDescription<Route>,
        maximumEventSize: Int = 1024 * 1024,
        idleTimeout: Duration? = .seconds(60),
        reconnection: ReconnectionPolicy = ReconnectionPolicy()
    ) -> ServerSentEventStream {
        events(
            Endpoint<Data>(request), maximumEventSize: maximumEventSize, idleTimeout: idleTimeout,
            reconnection: reconnection)
    }
}

extension HTTPField.Name {
    /// `Last-Event-ID`, which an event stream's reconnection sends.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}

/// The events of `Networker.events(_:)`:
/// each iterator connects, and reconnects, on its own. Its errors are ``StrataError``.
public struct ServerSentEventStream: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = ServerSentEvent

    let connect: @Sendable (String?) async throws(StrataError) -> (HTTPResponse, MessageBody)
    let policy: ReconnectionPolicy
    let budget: RetryBudget?
    let maximumEventSize: Int

    /// Connects, reads and reconnects.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let stream: ServerSentEventStream
        private var parser: ServerSentEventParser
        private var head: HTTPResponse?
        private var body: MessageBody.AsyncIterator?
        private var pending: [ServerSentEvent] = []
        private var pendingIndex = 0
        private var connections = 0
        /// Connections in a row that ended before they delivered an event.
        private var failuresInARow = 0
        private var deliveredOnThisConnection = false
        private var isFinished = false
        /// The error to throw once the events completed before it are handed out.
        private var failure: StrataError?

        init(_ stream: ServerSentEventStream) {
            self.stream = stream
            self.parser = ServerSentEventParser(limit: stream.maximumEventSize)
        }

        /// The next event, connecting or reconnecting as needed; `nil` only after an
        /// error was thrown.
        /// - Throws: ``StrataError``.
        public mutating func next() async throws -> ServerSentEvent? {
            while true {
                if pendingIndex < pending.count {
                    // A cancelled task gets no more events, even those already parsed.
                    if Task.isCancelled {
                        pending.removeAll()
                        pendingIndex = 0
                        isFinished = true
                        failure = nil
                        body = nil
                        throw StrataError(.cancelled, response: head)
                    }
                    defer { pendingIndex += 1 }
                    return pending[pendingIndex]
                }
                pending.removeAll(keepingCapacity: true)
                pendingIndex = 0
                if let failure {
                    self.failure = nil
                    throw failure
                }
                if isFinished { return nil }
                do throws(StrataError) {
                    if body == nil { try await connect() } else { try await read() }
                } catch {
                    isFinished = true
                    body = nil
                    failure = error
                }
            }
        }

        private mutating func connect() async throws(StrataError) {
            if connections > 0 { try await waitToReconnect() }
            if Task.isCancelled { throw StrataError(.cancelled) }
            connections += 1
            deliveredOnThisConnection = false
            let head: HTTPResponse
            let responseBody: MessageBody
            do {
                (head, responseBody) = try await stream.connect(parser.lastEventID.isEmpty ? nil : parser.lastEventID)
            } catch {
                guard error.kind == .transport else { throw error }
                failuresInARow += 1  // refused, timed out, lost: reconnect
                return
            }
            if head.status == .noContent {
                throw StrataError(.eventStream, underlying: EventStreamError.closedByServer, response: head)
            }
            guard head.status == .ok else { throw StrataError(.unacceptableStatus, response: head) }
            guard let contentType = head.headerFields[.contentType],
                ResponseValidation.matches(contentType, any: ["text/event-stream"])
            else {
                throw StrataError(.unacceptableContentType, response: head)
            }
            parser.startNewStream()
            self.head = head
            body = responseBody.makeAsyncIterator()
        }

        private func waitToReconnect() async throws(StrataError) {
            if let limit = stream.policy.maximumReconnections, connections > limit {
                throw StrataError(.eventStream, underlying: EventStreamError.reconnectionLimitReached(limit))
            }
            if let budget = stream.budget, !budget.withdraw() {
                throw StrataError(.eventStream, underlying: EventStreamError.budgetSpent)
            }
            let delay = stream.policy.delay(afterFailures: failuresInARow, serverTime: parser.reconnectionTime)
            do {
                try await stream.policy.sleep(delay)
            } catch {
                throw StrataError(.cancelled)
            }
        }

        private mutating func read() async throws(StrataError) {
            let chunk: Data?
            do {
                chunk = try await body?.next()
            } catch let error as StrataError where error.kind == .cancelled {
                throw error  // the call's cancellation, with its request and response
            } catch {
                if Task.isCancelled { throw StrataError(.cancelled, response: head) }
                endConnection()  // dropped, or silent past the idle timeout: reconnect
                return
            }
            guard let chunk else { return endConnection() }
            do {
                try parser.feed(chunk, into: &pending)
            } catch {
                throw StrataError(.bodyTooLarge, underlying: error, response: head)
            }
            if !pending.isEmpty {
                deliveredOnThisConnection = true
                failuresInARow = 0
            }
        }

        private mutating func endConnection() {
            body = nil
            parser.startNewStream()
            if !deliveredOnThisConnection { failuresInARow += 1 }
        }
    }

    /// Starts a stream of its own: the first call of `next()` connects.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(self)
    }
}
