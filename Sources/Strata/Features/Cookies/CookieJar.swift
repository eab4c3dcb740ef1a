import Foundation

/// Where a client keeps the cookies servers set, and which requests carry them: the same
/// rules (RFC 6265bis) on every transport. ``CookieMiddleware`` uses a jar; the app reads,
/// adds and deletes cookies through it (a log-out clears them), and exports and imports
/// them (``Cookie`` is `Codable`).
///
/// ``MemoryCookieJar`` keeps them for the life of the process; a persistent jar keeps a
/// ``CookieStorage`` the same way and writes it where it lasts. A jar answers at once
/// (its methods do not wait): ``CookieMiddleware`` calls it on every request.
public protocol CookieJar: Sendable {
    /// The cookies a request to `url` carries now, in the order of the `Cookie` field.
    func cookies(for url: URL) -> [Cookie]
    /// Stores what the `Set-Cookie` fields of the response to `url` say.
    func receive(_ setCookieFields: [String], from url: URL)
    /// Every cookie held now, expired ones left out.
    var allCookies: [Cookie] { get }
    /// Adds a cookie, replacing one of the same name, domain and path; an expired one
    /// deletes it.
    func add(_ cookie: Cookie)
    /// Deletes every cookie `shouldRemove` picks.
    func removeAll(where shouldRemove: @Sendable (Cookie) -> Bool)
}

extension CookieJar {
    /// Deletes every cookie: a log-out.
    public func removeAll() { removeAll(where: { _ in true }) }

    /// Adds each of `cookies` (an export of ``allCookies``, say).
    public func add(contentsOf cookies: [Cookie]) {
        for cookie in cookies { add(cookie) }
    }
}

/// A ``CookieJar`` in memory, for the life of the process (or of the jar).
///
/// ```swift
/// let jar = MemoryCookieJar()
/// let client = Networker(transport: transport, middleware: [CookieMiddleware(jar: jar)])
/// // … log in: the session cookie is kept and sent …
/// jar.removeAll()  // log out
/// ```
public final class MemoryCookieJar: CookieJar {
    private let storage: Locked<CookieStorage>
    private let now: @Sendable () -> Date
    /// Told of each change, under the jar's lock (so in order): a persistent jar writes it.
    private let didChange: (@Sendable (_ before: [Cookie], _ after: [Cookie]) -> Void)?

    /// An empty jar.
    /// - Parameters:
    ///   - limits: how many cookies it keeps per domain and in all.
    ///   - now: the clock expiry is read on; the system's by default.
    public init(limits: CookieStorage.Limits = .init(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.storage = Locked(CookieStorage(limits: limits))
        self.now = now
        self.didChange = nil
    }

    /// A jar holding `cookies` (those not expired), that reports each change to
    /// `didChange` while it holds its lock: the memory of a persistent jar.
    package init(
        limits: CookieStorage.Limits, now: @escaping @Sendable () -> Date, cookies: [Cookie],
        didChange: @escaping @Sendable (_ before: [Cookie], _ after: [Cookie]) -> Void
    ) {
        var storage = CookieStorage(limits: limits)
        let date = now()
        for cookie in cookies { storage.add(cookie, at: date) }
        self.storage = Locked(storage)
        self.now = now
        self.didChange = didChange
    }

    /// The cookies a request to `url` carries now.
    public func cookies(for url: URL) -> [Cookie] {
        let now = now()
        return storage.withLock { $0.cookies(for: url, at: now) }
    }

    /// Stores what the `Set-Cookie` fields of the response to `url` say.
    public func receive(_ setCookieFields: [String], from url: URL) {
        guard !setCookieFields.isEmpty else { return }
        let now = now()
        change { storage in
            for field in setCookieFields { storage.receive(field, from: url, at: now) }
        }
    }

    /// Every cookie held now.
    public var allCookies: [Cookie] {
        let now = now()
        return storage.withLock { $0.cookies.filter { !$0.isExpired(at: now) } }
    }

    /// Adds `cookie`; see ``CookieJar/add(_:)``.
    public func add(_ cookie: Cookie) {
        let now = now()
        change { _ = $0.add(cookie, at: now) }
    }

    /// Deletes every cookie `shouldRemove` picks.
    public func removeAll(where shouldRemove: @Sendable (Cookie) -> Bool) {
        change { $0.removeAll(where: shouldRemove) }
    }

    /// Applies `body` to the storage, and reports the change when someone listens.
    private func change(_ body: (inout CookieStorage) -> Void) {
        storage.withLock { storage in
            guard let didChange else { return body(&storage) }
            let before = storage.cookies
            body(&storage)
            if storage.cookies != before { didChange(before, storage.cookies) }
        }
    }
}
