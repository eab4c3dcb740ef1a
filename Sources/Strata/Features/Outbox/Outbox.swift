import Foundation
import HTTPTypes

/// Writes that wait for the network: each request enqueued is stored at once, then
/// delivered in the background through the client's steps, with the same
/// `Idempotency-Key` on every attempt, until the server gives it a final answer — across
/// lost connections and, with a store on disk, across restarts of the app.
///
/// ```swift
/// let outbox = Outbox(networker: networker)  // a store on disk: SQLiteOutboxStore
/// let note = Endpoint<Data>(
///     RequestDescription(route: "https://api.example.com/notes", method: .post, parameters: ["text": "hi"]))
/// let item = try outbox.enqueue(note, group: "notes")
/// for await event in outbox.events {
///     if case .delivered(let delivered, _, _) = event, delivered.id == item.id { break }
/// }
/// ```
///
/// - **In order per group**: the items of one group (a conversation, a document) are
///   delivered one at a time, in the order they were enqueued; groups go independently.
/// - **Retried while the failure can pass**: a lost connection, a timeout, a `408`,
///   `425`, `429` or `5xx` keeps the item; it is sent again after a backoff (or the
///   `Retry-After` the server asked for), and after ``OutboxPolicy/isReachable`` says the
///   network is back, when set.
/// - **Refused for good**: a `4xx` other than those, or a request that cannot be sent,
///   moves the item to the dead letters with the response; its group goes on or stops
///   (``OutboxPolicy/deadLetterAction``) until the app retries or discards it.
/// - **Exactly once as far as the server's idempotency allows**: an item is removed only
///   after a final answer, so a process killed between sending and recording the answer
///   sends the item again, with the same key.
/// - Each attempt is a call of the client: its authentication (credentials are read
///   when the item is sent, never stored), retries, logging and telemetry see it.
public final class Outbox: Sendable {
    /// Where the items and dead letters are kept.
    public let store: any OutboxStore
    /// How the outbox delivers.
    public let policy: OutboxPolicy
    private let networker: Networker
    private let state: Locked<State>

    private struct State {
        var isPaused: Bool
        var isClosed = false
        /// The groups being delivered, each by a task of its own.
        var delivering: [String: Task<Void, Never>] = [:]
        /// Groups whose task was asked to look at the store again before it ends.
        var kicked: Set<String> = []
        /// Groups waiting out a backoff: woken at once by ``drain()``, ``pause()`` and
        /// ``close()``, which count in `wakeUps`.
        var backoffs = WaitingLine<String, Void>(limit: .max)
        var wakeUps = 0
        /// Groups that failed and wait (since the last wake-up).
        var resting: Set<String> = []
        var listeners: [Int: AsyncStream<OutboxEvent>.Continuation] = [:]
        var nextListener = 0
        /// ``drain()`` calls waiting until every group is done or waiting out a backoff.
        var drains: [CheckedContinuation<Void, Never>] = []

        /// Whether no group is sending: each is done or waits after a failure.
        var isSettled: Bool { delivering.keys.allSatisfy { resting.contains($0) } }

        /// Ends every backoff at once; resume what it returns outside the lock.
        mutating func wakeUp() -> [WaitingLine<String, Void>.Granted] {
            wakeUps += 1
            resting = []
            return backoffs.grant { _ in () }
        }
    }

    /// Creates an outbox that delivers through `networker` the items of `store` — those a
    /// previous process left included — unless it `startsPaused`.
    /// - Parameters:
    ///   - networker: the client that sends each item, with its steps.
    ///   - store: where items are kept; ``MemoryOutboxStore`` by default (gone with the
    ///     process).
    ///   - policy: backoff, giving up, dead letters, reachability.
    ///   - startsPaused: `true` to deliver nothing until ``resume()`` or ``drain()``.
    public init(
        networker: Networker, store: any OutboxStore = MemoryOutboxStore(), policy: OutboxPolicy = OutboxPolicy(),
        startsPaused: Bool = false
    ) {
        self.networker = networker
        self.store = store
        self.policy = policy
        self.state = Locked(State(isPaused: startsPaused))
        deliverPending()
    }

    // MARK: Enqueueing

    /// Stores `endpoint`'s request, with an `Idempotency-Key` made now (or the one it has),
    /// and returns at once; the outbox delivers it in the background. The endpoint's
    /// parse function is not used: the answer is an ``OutboxEvent``.
    /// - Parameters:
    ///   - endpoint: the request; its body is stored as bytes, or as a reference to its
    ///     file (``RequestBody/file(_:contentType:)``, read when the item is sent); a
    ///     stream cannot be stored.
    ///   - group: the items of one group are delivered in order, one at a time.
    /// - Returns: the item as stored.
    /// - Throws: ``StrataError`` of kind ``StrataError/Kind/invalidURL`` or
    ///   ``StrataError/Kind/encoding`` when the request cannot be built;
    ///   ``OutboxError/full(limits:)`` or ``OutboxError/bodyNotStorable``; the store's
    ///   error when it cannot write.
    @discardableResult
    public func enqueue<Response>(_ endpoint: Endpoint<Response>, group: String = "") throws -> OutboxItem {
        let encoded: EncodedRequest
        do {
            encoded = try endpoint.encoded(jsonEncoder: networker.configuration.jsonEncoder)
        } catch let error as URLRouteError {
            throw StrataError(.invalidURL, underlying: error)
        } catch {
            throw StrataError(.encoding, underlying: error)
        }
        return try enqueue(encoded, group: group, attributes: endpoint.attributes)
    }

    /// Stores an encoded request; see ``enqueue(_:group:)-(Endpoint<Response>,_)``.
    @discardableResult
    public func enqueue(_ request: EncodedRequest, group: String = "", attributes: [String: String] = [:]) throws
        -> OutboxItem
    {
        let body = request.body?.bufferedData
        let bodyFile = body == nil ? request.body?.file : nil
        if request.body != nil, body == nil, bodyFile == nil { throw OutboxError.bodyNotStorable }
        let item = try store.append(
            OutboxItem(
                request: request, body: body, bodyFile: bodyFile, group: group, attributes: attributes, now: Date()))
        emit(.enqueued(item))
        deliver(group)
        return item
    }

    // MARK: What it holds

    /// The items waiting for delivery, in order.
    /// - Throws: the store's error when it cannot read.
    public var pending: [OutboxItem] { get throws { try store.pendingItems() } }

    /// The items refused for good, in order.
    /// - Throws: the store's error when it cannot read.
    public var deadLetters: [DeadLetter] { get throws { try store.deadLetters() } }

    /// Sends the dead letter `id` again, first in its group, with its key.
    /// - Throws: ``OutboxError/notFound(_:)``, or the store's error.
    public func retry(deadLetter id: UUID) throws {
        let group = try deadLetters.first { $0.id == id }?.item.group
        try store.requeue(id)
        if let group { deliver(group) }
    }

    /// Deletes the dead letter `id`; a group it stopped goes on.
    /// - Throws: ``OutboxError/notFound(_:)``, or the store's error.
    public func discard(deadLetter id: UUID) throws {
        let group = try deadLetters.first { $0.id == id }?.item.group
        try store.discard(id)
        if let group { deliver(group) }
    }

    /// Every event from now on, until the outbox closes. Each call makes a sequence of its
    /// own; an event not read keeps at most the newest 1,024.
    public var events: AsyncStream<OutboxEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: OutboxEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let id = state.withLock { state -> Int? in
            guard !state.isClosed else { return nil }
            state.nextListener += 1
            state.listeners[state.nextListener] = continuation
            return state.nextListener
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    // MARK: Controlling delivery

    /// Stops delivering: an attempt under way finishes, nothing more is sent until
    /// ``resume()`` or ``drain()``.
    public func pause() {
        let woken = state.withLock { state in
            state.isPaused = true
            return state.wakeUp()
        }
        for waiter in woken { waiter.resume() }
    }

    /// Delivers again after ``pause()``.
    public func resume() {
        state.withLock { $0.isPaused = false }
        deliverPending()
    }

    /// Delivers what can be delivered now — a paused outbox is resumed, a group waiting
    /// out a backoff tries at once — and returns when every group is empty, stopped by a
    /// dead letter, or failed again and waits: for a background task that the system
    /// gives a little time. Cancelling the calling task stops the waiting, not the
    /// delivery.
    public func drain() async {
        let woken = state.withLock { state in
            state.isPaused = false
            return state.wakeUp()
        }
        for waiter in woken { waiter.resume() }
        deliverPending()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let settled = state.withLock { state in
                if state.isSettled { return true }
                state.drains.append(continuation)
                return false
            }
            if settled { continuation.resume() }
        }
    }

    /// Stops delivering for good: attempts under way are cancelled (their items stay, to
    /// be sent with the same key by the next outbox on the store), the event sequences
    /// finish. Returns once no task of the outbox runs.
    public func close() async {
        let (tasks, woken, listeners, drains) = state.withLock { state in
            state.isClosed = true
            defer {
                state.listeners = [:]
                state.drains = []
            }
            return (
                Array(state.delivering.values), state.wakeUp(), Array(state.listeners.values),
                state.drains
            )
        }
        for waiter in woken { waiter.resume() }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        for listener in listeners { listener.finish() }
        for drain in drains { drain.resume() }
    }

    // MARK: Delivery

    /// Starts delivering every group with pending items.
    private func deliverPending() {
        guard let items = try? store.pendingItems() else { return }
        for group in Set(items.map(\.group)) { deliver(group) }
    }

    /// Makes sure a task delivers `group`, or that the one running looks at the store
    /// again before it ends.
    private func deliver(_ group: String) {
        state.withLock { state in
            guard !state.isPaused, !state.isClosed else { return }
            if state.delivering[group] != nil {
                state.kicked.insert(group)
            } else {
                state.delivering[group] = Task { await self.run(group) }
            }
        }
    }

    /// Delivers `group`'s items one at a time until none is left (or the group is stopped,
    /// or the outbox paused or closed).
    private func run(_ group: String) async {
        while true {
            if let item = nextItem(of: group) {
                await attempt(item)
                continue
            }
            let done = state.withLock { state in
                if state.kicked.remove(group) != nil, !state.isPaused, !state.isClosed { return false }
                state.delivering[group] = nil
                return true
            }
            if done { break }
        }
        settle()
    }

    /// The group's first pending item, unless the outbox is paused or closed, or a dead
    /// letter stops the group.
    private func nextItem(of group: String) -> OutboxItem? {
        guard state.withLock({ !$0.isPaused && !$0.isClosed }), !Task.isCancelled else { return nil }
        if policy.deadLetterAction == .stopGroup,
            (try? store.deadLetters().contains { $0.item.group == group }) != false
        {
            return nil
        }
        return (try? store.pendingItems())?.first { $0.group == group }
    }

    /// Sends `item` once and does what the answer says.
    private func attempt(_ item: OutboxItem) async {
        guard let request = item.request else {
            return refuse(item, status: nil, response: nil, body: Data(), reason: "the stored request is damaged")
        }
        let requestBody: MessageBody?
        do {
            requestBody =
                try item.body.map { MessageBody($0) } ?? item.bodyFile.map { try RequestBody.file($0).encoded().0 }
        } catch {
            return refuse(item, status: nil, response: nil, body: Data(), reason: "the body's file: \(error)")
        }
        let failure: OutboxFailure
        do {
            let (response, body) = try await networker.send(request, body: requestBody, attributes: item.attributes)
            // The answer's first bytes, as an error keeps them: the events and dead letters
            // carry them, and a dead letter is stored.
            let bytes = await body.prefix(networker.configuration.errorBodyLimit)
            switch OutboxVerdict(status: response.status.code) {
            case .delivered:
                try? store.remove(item.id)
                return emit(.delivered(item, response, body: bytes))
            case .refused(let reason):
                return refuse(item, status: response.status.code, response: response, body: bytes, reason: reason)
            case .retry, .stopped:
                failure = .response(response, body: bytes)
            }
        } catch {
            switch OutboxVerdict(error: error) {
            case .stopped: return
            case .refused(let reason):
                return refuse(item, status: nil, response: nil, body: Data(), reason: reason)
            case .delivered, .retry:
                failure = .error(error)
            }
        }
        let attempts = item.failedAttempts + 1
        try? store.recordFailedAttempt(of: item.id)
        if let limit = policy.maxFailedAttempts, attempts >= limit {
            let response: HTTPResponse? = if case .response(let head, _) = failure { head } else { nil }
            let body: Data = if case .response(_, let bytes) = failure { bytes } else { Data() }
            return refuse(
                item, status: response?.status.code, response: response, body: body,
                reason: "gave up after \(attempts) failed attempts")
        }
        let response: HTTPResponse? = if case .response(let head, _) = failure { head } else { nil }
        var wait = policy.wait(after: attempts, response: response)
        emit(.attemptFailed(item, failure, retryingIn: wait))
        while await backOff(item.group, for: wait), let isReachable = policy.isReachable, !(await isReachable()) {
            wait = policy.wait(after: attempts, response: nil)
        }
    }

    /// Waits `duration` unless the outbox drains, pauses or closes first; `false` when the
    /// wait was cut short that way or cancelled (nothing more to wait for).
    private func backOff(_ group: String, for duration: Duration) async -> Bool {
        let seen = state.withLock { state in
            state.resting.insert(group)
            return state.wakeUps
        }
        settle()
        defer { state.withLock { _ = $0.resting.remove(group) } }
        do {
            // Asked again as the wait queues: a wake-up in between ends it at once.
            try await state.wait(in: \.backoffs, for: group, until: .now + duration) { state in
                state.wakeUps != seen ? () : nil
            }
            return false
        } catch {
            return error is TransportError
        }
    }

    /// Moves `item` to the dead letters.
    private func refuse(_ item: OutboxItem, status: Int?, response: HTTPResponse?, body: Data, reason: String) {
        let letter = DeadLetter(
            item: item, status: status,
            responseFields: response?.headerFields.map { OutboxItem.Field(name: $0.name.rawName, value: $0.value) }
                ?? [],
            responseBody: body, reason: reason, date: Date())
        try? store.deadLetter(letter)
        emit(.deadLettered(letter))
    }

    /// Resumes the ``drain()`` calls once no group is sending.
    private func settle() {
        let drains = state.withLock { state in
            guard state.isSettled else { return [CheckedContinuation<Void, Never>]() }
            defer { state.drains = [] }
            return state.drains
        }
        for drain in drains { drain.resume() }
    }

    /// Tells every sequence from ``events``.
    private func emit(_ event: OutboxEvent) {
        for listener in state.withLock({ Array($0.listeners.values) }) { listener.yield(event) }
    }
}
