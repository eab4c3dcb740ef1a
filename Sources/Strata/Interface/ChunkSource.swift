import Foundation

/// Where the chunks of a streamed ``MessageBody`` come from, shared by every copy of
/// the body's iterator so that no copy can read from a stale position.
protocol ChunkSource: AnyObject, Sendable {
    /// The next chunk, or `nil` at the end of the body.
    func next() async throws -> Data?
}

/// A ``ChunkSource`` over one async iterator of `Data`, read by one reader at a time.
///
/// The element type is kept (no casts), so nothing can end a body silently:
/// - a read that fails ends the body (later reads return `nil`); it never resumes from
///   a stale copy of the iterator;
/// - a read while another is still in flight throws ``MessageBodyError/alreadyConsumed``.
///
/// The iterator lives in `state` (a ``Locked``) and is taken out for the duration of
/// one read, so only one task ever touches it.
final class IteratorChunkSource<Base: AsyncIteratorProtocol>: ChunkSource where Base.Element == Data {
    private enum State {
        case idle(Base)
        case reading
        case finished
    }

    private let state: Locked<State>

    init(_ iterator: Base) {
        self.state = Locked(.idle(iterator))
    }

    func next() async throws -> Data? {
        let taken: Base? = try state.withLock { state in
            switch state {
            case .idle(let iterator):
                state = .reading
                return iterator
            case .reading:
                throw MessageBodyError.alreadyConsumed
            case .finished:
                return nil
            }
        }
        guard var iterator = taken else { return nil }
        do {
            let chunk = try await iterator.next()
            state.withLock { $0 = chunk == nil ? .finished : .idle(iterator) }
            return chunk
        } catch {
            state.withLock { $0 = .finished }
            throw error
        }
    }
}

/// Hands the chunk source of a one-shot ``MessageBody`` to its first reader only; every
/// later reader gets `nil` and reports ``MessageBodyError/alreadyConsumed``.
final class OneShotSource: Sendable {
    private let make: Locked<(@Sendable () -> any ChunkSource)?>

    init(_ make: @escaping @Sendable () -> any ChunkSource) {
        self.make = Locked(make)
    }

    /// A fresh source on the first call, `nil` on every later one.
    func claim() -> (any ChunkSource)? {
        let make = self.make.withLock { make in
            defer { make = nil }
            return make
        }
        return make?()
    }
}
