import Foundation

/// Hands the upstream iterator of a streamed ``HTTPBody`` to its first reader only;
/// every later reader gets `nil` and reports ``HTTPBodyError/alreadyConsumed``.
///
/// `@unchecked Sendable`: `iterator` is only read and cleared while `lock` is held,
/// and once claimed it belongs to a single reader.
final class OneShotIterator: @unchecked Sendable {
    private let lock = NSLock()
    private var iterator: (any AsyncIteratorProtocol)?

    init(_ iterator: any AsyncIteratorProtocol & Sendable) {
        self.iterator = iterator
    }

    /// The upstream iterator on the first call, `nil` on every later one.
    func claim() -> (any AsyncIteratorProtocol)? {
        lock.withLock {
            defer { iterator = nil }
            return iterator
        }
    }
}
