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
    func discard() async {
        _ = await prefix(Self.discardLimit)
    }

    /// ``discard()``, given up at `deadline`: a step that drops a body bounds the read
    /// itself (see ``DeadlineBounded``).
    func discard(until deadline: ContinuousClock.Instant?) async {
        _ = await Deadline.run(until: deadline) { await self.discard() }
    }
}
