import Foundation

/// Hands the upstream iterator of a streamed ``MessageBody`` to its first reader only;
/// every later reader gets `nil` and reports ``MessageBodyError/alreadyConsumed``.
///
/// `@unchecked Sendable`: `makeIterator` is only read and cleared while `lock` is
/// held, so exactly one caller gets to make the iterator.
final class OneShotIterator: @unchecked Sendable {
    private let lock = NSLock()
    private var makeIterator: (@Sendable () -> any AsyncIteratorProtocol)?

    init(_ makeIterator: @escaping @Sendable () -> any AsyncIteratorProtocol) {
        self.makeIterator = makeIterator
    }

    /// A fresh upstream iterator on the first call, `nil` on every later one.
    func claim() -> (any AsyncIteratorProtocol)? {
        let make: (@Sendable () -> any AsyncIteratorProtocol)? = lock.withLock {
            defer { makeIterator = nil }
            return makeIterator
        }
        return make?()
    }
}
