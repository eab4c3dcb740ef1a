#if SQLiteCache
    import Foundation
    import GRDB
    import Strata

    /// A `CookieJar` that lasts across launches, in a SQLite database (through GRDB, WAL):
    /// the jar's `CookieStorage` in memory — every rule of RFC 6265bis is the storage's — and
    /// each change written through in one transaction.
    ///
    /// ```swift
    /// let jar = try SQLiteCookieJar(path: supportDirectory.appending(path: "cookies.sqlite").path)
    /// let networker = Networker(transport: transport, middleware: [CookieMiddleware(jar: jar)])
    /// ```
    ///
    /// - **Session cookies end with the session**: a cookie without `Expires` or `Max-Age`
    ///   is kept while the jar is open and not loaded by the next one (RFC 6265bis), unless
    ///   `keepsSessionCookies` says otherwise.
    /// - **Never a crash**: a file that is not a cookie database (random bytes, a damaged or
    ///   foreign one) is moved aside (``recoveredFile``) and a new jar created; a row that
    ///   does not read as a cookie is skipped.
    /// - When a request carries a cookie, its last use is kept in memory and written with the
    ///   next change, so sending cookies takes no write.
    /// - The rules and the cookies in memory are a `MemoryCookieJar`'s; this jar writes what
    ///   it reports.
    public final class SQLiteCookieJar: CookieJar {
        /// The database file.
        public let path: String
        /// Where a damaged or foreign file found at ``path`` was moved, when opening found one.
        public let recoveredFile: String?
        /// The cookies and their rules; it reports each change, which is written here.
        private let jar: MemoryCookieJar

        /// `PRAGMA application_id` of a Strata cookie database ("STRK").
        static let applicationID = 0x5354_524B

        /// Opens the jar at `path`, creating it (or replacing a damaged or foreign file, which
        /// is moved aside) as needed, and loads its cookies that have not expired.
        /// - Parameters:
        ///   - path: the database file.
        ///   - limits: how many cookies it keeps per domain and in all.
        ///   - keepsSessionCookies: whether cookies without an expiry are loaded again (an
        ///     app whose "session" outlives the process); `false` by default, as browsers do.
        ///   - now: the clock expiry is read on; the system's by default.
        /// - Throws: GRDB's `DatabaseError` or a file system error when no jar can be created
        ///   at `path` at all.
        public init(
            path: String, limits: CookieStorage.Limits = .init(), keepsSessionCookies: Bool = false,
            now: @escaping @Sendable () -> Date = { Date() }
        ) throws {
            self.path = path
            let opened: (queue: DatabaseQueue, cookies: [Cookie])
            do {
                opened = try Self.open(path)
                self.recoveredFile = nil
            } catch {
                let aside = try SQLiteFiles.moveAside(path)
                opened = try Self.open(path)
                self.recoveredFile = aside
            }
            let queue = opened.queue
            // A write that fails (a full disk) leaves the jar in memory right and the file
            // behind until the next change.
            self.jar = MemoryCookieJar(
                limits: limits, now: now, cookies: opened.cookies.filter { keepsSessionCookies || $0.expires != nil },
                didChange: { before, after in try? Self.write(queue, from: before, to: after) })
            try? Self.write(queue, from: opened.cookies, to: jar.allCookies)  // what expired or ended meanwhile
        }

        /// The cookies a request to `url` carries now.
        public func cookies(for url: URL) -> [Cookie] { jar.cookies(for: url) }

        /// Stores what the `Set-Cookie` fields of the response to `url` say, and writes the
        /// change.
        public func receive(_ setCookieFields: [String], from url: URL) { jar.receive(setCookieFields, from: url) }

        /// Every cookie held now.
        public var allCookies: [Cookie] { jar.allCookies }

        /// Adds `cookie` and writes the change; see `CookieJar.add(_:)`.
        public func add(_ cookie: Cookie) { jar.add(cookie) }

        /// Deletes every cookie `shouldRemove` picks, and writes the change.
        public func removeAll(where shouldRemove: @Sendable (Cookie) -> Bool) { jar.removeAll(where: shouldRemove) }

        /// Writes the difference between two lists of cookies: rows deleted and upserted.
        private static func write(_ queue: DatabaseQueue, from before: [Cookie], to after: [Cookie]) throws {
            let kept = Set(after.map(Self.key))
            let unchanged = Set(before)
            let encoder = JSONEncoder()
            try queue.write { db in
                for cookie in before where !kept.contains(Self.key(cookie)) {
                    try db.execute(
                        sql: "DELETE FROM cookies WHERE name = ? AND domain = ? AND host_only = ? AND path = ?",
                        arguments: [cookie.name, cookie.domain, cookie.isHostOnly, cookie.path])
                }
                for cookie in after where !unchanged.contains(cookie) {
                    try db.execute(
                        sql: """
                            INSERT OR REPLACE INTO cookies (name, domain, host_only, path, cookie)
                            VALUES (?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            cookie.name, cookie.domain, cookie.isHostOnly, cookie.path, try encoder.encode(cookie),
                        ])
                }
            }
        }

        private static func key(_ cookie: Cookie) -> [String] {
            [cookie.name, cookie.domain, cookie.isHostOnly ? "1" : "0", cookie.path]
        }

        /// Opens the database, checks it is a cookie jar (or empty), and reads its cookies.
        private static func open(_ path: String) throws -> (DatabaseQueue, [Cookie]) {
            try SQLiteFiles.openQueue(path, applicationID: applicationID, what: "cookie", synchronous: "NORMAL") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS cookies (
                            name TEXT NOT NULL, domain TEXT NOT NULL, host_only INTEGER NOT NULL,
                            path TEXT NOT NULL, cookie BLOB NOT NULL,
                            PRIMARY KEY (name, domain, host_only, path))
                        """)
                let decoder = JSONDecoder()
                // A damaged row may hold anything: read it without GRDB's trapping conversions.
                return try Row.fetchAll(db, sql: "SELECT cookie FROM cookies").compactMap { row in
                    Data.fromDatabaseValue(row[0] as DatabaseValue).flatMap {
                        try? decoder.decode(Cookie.self, from: $0)
                    }
                }
            }
        }
    }
#endif
