import Foundation

/// Where the chunks of a streamed ``MessageBody`` come from, shared by every copy of
/// the body's iterator so that no copy can read from a stale position (a conforming
/// struct shares its state through a reference, as ``IteratorChunkSource`` does).
protocol ChunkSource: Sendable {
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
/// one read, so only one task ever touches it. Copies share that state.
///
/// Not generic: the iterator is held as an ``ErasedIterator`` existential. Generic code
/// that runs unspecialised (a transport in another module streaming a body of its own
/// iterator type) looks up the metadata of every generic type it touches on every use;
/// here the iterator's type is looked up once, when the source is made.
struct IteratorChunkSource: ChunkSource {
    private enum State {
        case idle(any ErasedIterator)
        case reading
        case finished
    }

    private let state: Locked<State>

    init<Base: AsyncIteratorProtocol>(_ iterator: Base) where Base.Element == Data {
        self.state = Locked(.idle(ErasingIterator(iterator)))
    }

    func next() async throws -> Data? {
        let taken: (any ErasedIterator)? = try state.withLock { state in
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
        guard let iterator = taken else { return nil }
        do {
            let chunk = try await iterator.nextChunk()
            state.withLock { $0 = chunk == nil ? .finished : .idle(iterator) }
            return chunk
        } catch {
            state.withLock { $0 = .finished }
            throw error
        }
    }
}

/// An async iterator of `Data` with its type erased (see ``IteratorChunkSource``): a
/// class, so a read advances it in place (a value in an existential's box would be copied
/// into a new box on every read that finds the box shared).
private protocol ErasedIterator: AnyObject {
    /// The base iterator's next chunk.
    func nextChunk() async throws -> Data?
}

/// `Base` as an ``ErasedIterator``: only ever read by the one reader that took it out of
/// its source's lock.
private final class ErasingIterator<Base: AsyncIteratorProtocol>: ErasedIterator where Base.Element == Data {
    private var base: Base

    init(_ base: Base) {
        self.base = base
    }

    func nextChunk() async throws -> Data? {
        try await base.next()
    }
}
