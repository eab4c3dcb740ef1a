import Foundation

extension MessageBody {
    /// Up to `maxBytes` bytes from the start of the body; a read error ends it early.
    /// Used for error snippets, where a partial body is better than none.
    public func prefix(_ maxBytes: Int) async -> Data {
        if let bufferedData { return bufferedData.prefix(maxBytes) }
        var result = Data()
        do {
            for try await chunk in self {
                result.append(chunk.prefix(maxBytes - result.count))
                if result.count >= maxBytes { break }
            }
        } catch {
            return result
        }
        return result
    }
}

extension MessageBody {
    /// How much of a body ``discard()`` reads before dropping it.
    static let discardLimit = 64 * 1024

    /// Reads (at most 64 KiB, errors ignored) and drops a response body that gets no
    /// further use, such as a redirect's or a retried response's, so that a small one
    /// leaves its connection ready for the next request.
    package func discard() async {
        _ = await prefix(Self.discardLimit)
    }

    /// Reads (at most 64 KiB, errors ignored) and drops a response body that gets no
    /// further use, such as a redirect's or a retried response's, giving up at `deadline`
    /// (the call's, ``MiddlewareContext/deadline``): a step that drops a body bounds the
    /// read itself, so a small body leaves its connection ready for the next request and a
    /// stalled one cannot hold the call past its deadline.
    public func discard(until deadline: ContinuousClock.Instant?) async {
        _ = await read(until: deadline) { await $0.discard() }
    }

    /// Up to `maxBytes` bytes from the start of the body, read within `deadline` (the
    /// call's, ``MiddlewareContext/deadline``): what a step keeps of a body it fails on, for
    /// its error's snippet. `nil` when the deadline passed before anything was read.
    public func prefix(_ maxBytes: Int, until deadline: ContinuousClock.Instant?) async -> Data? {
        try? await read(until: deadline) { await $0.prefix(maxBytes) }.result.get()
    }

    /// Runs `read` on the body, given up at `deadline`: the one way a step reads a body
    /// under the call's deadline. A body in memory is read at once (it cannot wait); a
    /// streamed one under a timer released when the read ends, which cancels the read when
    /// the deadline passes first.
    /// - Returns: what `read` returned or threw, and whether the deadline passed first
    ///   (the step decides what that means: a timeout, or a body left unread).
    public func read<Value: Sendable>(
        until deadline: ContinuousClock.Instant?,
        _ read: @escaping @Sendable (MessageBody) async throws -> Value
    ) async -> (result: Result<Value, any Error>, timedOut: Bool) {
        await self.read(until: deadline, BodyReadingClosure(reading: read))
    }

    /// ``read(until:_:)`` with a reader that is a value, which a body in memory runs
    /// without allocating (the call's own collection of its body, on every call).
    package func read<Reader: BodyReading>(until deadline: ContinuousClock.Instant?, _ reader: Reader) async -> (
        result: Result<Reader.Value, any Error>, timedOut: Bool
    ) {
        await read(under: deadline.map { DeadlineTimer(deadline: $0) }, reader)
    }

    /// ``read(until:_:)`` under a timer `timer` makes, only for a body still streaming,
    /// and cancels once the read ends.
    func read<Reader: BodyReading>(under timer: @autoclosure () -> DeadlineTimer?, _ reader: Reader) async
        -> (result: Result<Reader.Value, any Error>, timedOut: Bool)
    {
        guard bufferedData == nil else {
            do {
                return (.success(try await reader.read(self)), false)
            } catch {
                return (.failure(error), false)
            }
        }
        let timer = timer()
        defer { timer?.cancel() }
        let body = self
        return await Deadline.run(under: timer) { try await reader.read(body) }
    }
}

/// Reads a body into a value: what ``MessageBody/read(until:_:)`` runs.
package protocol BodyReading: Sendable {
    /// What the body is read into.
    associatedtype Value: Sendable
    /// Reads `body`.
    func read(_ body: MessageBody) async throws -> Value
}

/// The body collected whole, at most `limit` bytes (``MessageBody/collect(upTo:)``).
package struct BodyCollector: BodyReading {
    /// The most bytes collected.
    package let limit: Int

    package init(limit: Int) {
        self.limit = limit
    }

    package func read(_ body: MessageBody) async throws -> Data {
        try await body.collect(upTo: limit)
    }
}

/// A reader that is a closure.
private struct BodyReadingClosure<Value: Sendable>: BodyReading {
    let reading: @Sendable (MessageBody) async throws -> Value

    func read(_ body: MessageBody) async throws -> Value {
        try await reading(body)
    }
}
