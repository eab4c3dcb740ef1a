#if SQLiteCache
    import Foundation
    import GRDB
    import Strata

    /// A `CacheStore` in a SQLite database (through GRDB), so that cached responses
    /// survive the app: bounded by bytes with least-recently-used eviction, in WAL mode, safe
    /// for concurrent use by every client of one process.
    ///
    /// ```swift
    /// let store = try SQLiteCacheStore(path: cachesDirectory.appending(path: "http-cache.sqlite").path,
    ///                                  capacity: 64 * 1024 * 1024)
    /// let cache = CacheMiddleware(store: store)
    /// ```
    ///
    /// - **Never a crash, never a wrong body.** A file that is not a SQLite database (random
    ///   bytes), a damaged one (cut short) or another program's database is moved aside
    ///   (``recoveredFile`` says where) and a new store created in its place. Every entry is
    ///   stored with its body's length and a 64-bit hash over its key, secondary key, head,
    ///   times and body, checked when read; an entry that fails the check (a damaged byte, a
    ///   missing or altered body chunk) is deleted and reads as a miss.
    /// - **Bodies in chunks.** A body is stored in chunks of 128 KiB, written one at a time
    ///   and read into one buffer of the body's size: a large body is never held twice.
    /// - **Schema version.** The database carries an application id and a schema version
    ///   (`PRAGMA application_id`, `user_version`); a store written by another schema
    ///   version is emptied and recreated (a cache loses nothing that matters).
    /// - **Bound.** After each write, least recently used entries (read or written) are
    ///   deleted until the stored bytes (`CachedResponse.cost`) fit ``capacity``. A read is
    ///   remembered in memory and its recency written with the next write, so a hit takes no
    ///   write transaction (reads not followed by a write before the store closes are not
    ///   recorded).
    public final class SQLiteCacheStore: CacheStore {
        /// The database file.
        public let path: String
        /// The most bytes the store holds.
        public let capacity: Int
        /// Where a damaged or foreign file found at ``path`` was moved, when opening found one.
        public let recoveredFile: String?
        private let pool: DatabasePool
        /// Keys read since the last write, each with the number of its latest read: their
        /// recency is written with the next `store`, just before it evicts, so a hit takes no
        /// write transaction. One item per key, however often it is read.
        private let pendingUses = Locked<(count: Int, keys: [String: Int])>((0, [:]))

        /// The size of the chunks a body is stored in (the last one may be shorter).
        static let chunkSize = 128 * 1024
        /// The schema this code writes; another version is reset. Version 1 kept each body
        /// whole in its entry's row, with a JSON head.
        static let schemaVersion = 2
        /// `PRAGMA application_id` of a Strata cache database ("STRC").
        static let applicationID = 0x5354_5243

        /// Opens the store at `path`, creating it (or replacing a damaged or foreign file,
        /// which is moved aside) as needed.
        /// - Throws: GRDB's `DatabaseError` or a file system error when no store can be
        ///   created at `path` at all (a directory that does not exist, no permission).
        public init(path: String, capacity: Int = 64 * 1024 * 1024) throws {
            self.path = path
            self.capacity = max(0, capacity)
            do {
                self.pool = try Self.open(path)
                self.recoveredFile = nil
            } catch {
                let aside = try SQLiteFiles.moveAside(path)
                self.pool = try Self.open(path)
                self.recoveredFile = aside
            }
        }

        /// The bytes held now.
        public func size() async throws -> Int {
            try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM entries") ?? 0 }
        }

        /// The variants under `key`, most recently stored first; a hit makes them the most
        /// recently used. Entries that fail their check are deleted and skipped.
        public func variants(for key: CacheKey) async throws -> [CachedResponse] {
            let name = key.description
            let capacity = self.capacity
            // Read (and check) beside other readers; only the removal of damaged entries takes
            // the writer here, the recency update waits for the next store. The read is GRDB's
            // synchronous one, run on the calling thread: a short indexed read, where the
            // asynchronous one costs two thread hand-offs (most of a hit's time, measured). It
            // is one statement, so one SQLite read transaction by itself: GRDB's BEGIN and
            // COMMIT around it would add nothing but two statements.
            let (variants, damaged) = try readNow { db in
                let statement = try db.cachedStatement(
                    sql: """
                        SELECT e.id, e.varied, e.head, e.body_size, e.checksum, e.request_time, e.response_time, c.data
                        FROM entries AS e LEFT JOIN chunks AS c ON c.entry_id = e.id
                        WHERE e.key = ? ORDER BY e.id DESC, c.seq
                        """)
                return try VariantRows.read(statement, key: name, capacity: capacity, in: db)
            }
            if !damaged.isEmpty {
                try await pool.write { db in
                    for id in damaged { try db.execute(sql: "DELETE FROM entries WHERE id = ?", arguments: [id]) }
                }
            }
            if !variants.isEmpty {
                pendingUses.withLock { uses in
                    uses.count += 1
                    uses.keys[name] = uses.count
                }
            }
            return variants
        }

        /// Stores `response`, replacing the variant with the same secondary key, then evicts
        /// least recently used entries until the store fits. A response larger than the whole
        /// store is not kept (and the key's older copies are dropped).
        public func store(_ response: CachedResponse, for key: CacheKey) async throws {
            let name = key.description
            let cost = response.cost
            let capacity = self.capacity
            let head = Data(EntryCoding.encode(response.head))
            let varied = Data(EntryCoding.encode(response.variedFields))
            let body = response.body
            let requestTime = response.requestTime.timeIntervalSince1970
            let responseTime = response.responseTime.timeIntervalSince1970
            var check = EntryChecksum()
            check.addPart(name.utf8)
            varied.withUnsafeBytes { check.addPart($0) }
            head.withUnsafeBytes { check.addPart($0) }
            check.addTimes(requestTime, responseTime)
            check.addLength(body.count)
            body.withUnsafeBytes { check.add($0) }
            let checksum = check.value
            let uses = pendingUses.withLock { uses in
                defer { uses = (0, [:]) }
                return uses.keys.sorted { $0.value < $1.value }.map(\.key)
            }
            try await pool.write { db in
                for used in uses {
                    try db.cachedStatement(
                        sql: """
                            UPDATE entries SET last_used = (SELECT COALESCE(MAX(last_used), 0) + 1 FROM entries) WHERE key = ?
                            """
                    ).execute(arguments: [used])
                }
                guard cost <= capacity else {
                    try db.execute(sql: "DELETE FROM entries WHERE key = ?", arguments: [name])
                    return
                }
                try db.cachedStatement(sql: "DELETE FROM entries WHERE key = ? AND varied = ?").execute(arguments: [
                    name, varied,
                ])
                try db.cachedStatement(
                    sql: """
                        INSERT INTO entries (key, varied, head, body_size, checksum, request_time, response_time, size, last_used)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(last_used), 0) + 1 FROM entries))
                        """
                ).execute(arguments: [name, varied, head, body.count, checksum, requestTime, responseTime, cost])
                let id = db.lastInsertedRowID
                let insertChunk = try db.cachedStatement(
                    sql: "INSERT INTO chunks (entry_id, seq, data) VALUES (?, ?, ?)")
                for (seq, start) in stride(from: body.startIndex, to: body.endIndex, by: Self.chunkSize).enumerated() {
                    let chunk = body[start..<min(start + Self.chunkSize, body.endIndex)]
                    try insertChunk.execute(arguments: [id, seq, chunk])
                }
                try Self.evict(db, capacity: capacity)
            }
        }

        /// GRDB's synchronous read without a transaction, from a synchronous context (an
        /// `async` caller gets the asynchronous overload otherwise).
        private func readNow<T>(_ body: (Database) throws -> T) throws -> T {
            try pool.unsafeRead(body)
        }

        /// Removes every variant under `key`.
        public func remove(_ key: CacheKey) async throws {
            let name = key.description
            try await pool.write { db in try db.execute(sql: "DELETE FROM entries WHERE key = ?", arguments: [name]) }
        }

        /// Removes everything.
        public func removeAll() async throws {
            try await pool.write { db in try db.execute(sql: "DELETE FROM chunks; DELETE FROM entries") }
        }

        /// Closes the database; later calls throw.
        public func close() throws {
            try pool.close()
        }

        // MARK: - Opening

        private static func open(_ path: String) throws -> DatabasePool {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            // Deleting an entry deletes its chunks (`ON DELETE CASCADE`).
            configuration.foreignKeysEnabled = true
            // A cache may lose its last writes in a power cut, never its consistency: in WAL mode
            // NORMAL syncs at checkpoints only, not at every commit (a hit's recency update).
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            let pool = try DatabasePool(path: path, configuration: configuration)
            do {
                try pool.write { db in try prepare(db) }
                return pool
            } catch {
                try? pool.close()
                throw error
            }
        }

        /// Checks the file and brings its schema to ``schemaVersion``.
        /// - Throws: when the file is damaged or another program's database.
        private static func prepare(_ db: Database) throws {
            guard try String.fetchOne(db, sql: "PRAGMA quick_check") == "ok" else {
                throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "quick_check failed")
            }
            let application = try Int.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            let tables = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0
            let ours =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('entries', 'chunks')"
                )
                ?? 0
            if application == applicationID, version == schemaVersion, ours == 2 { return }
            guard application == applicationID || tables == 0 else {
                throw DatabaseError(resultCode: .SQLITE_NOTADB, message: "not a Strata cache database")
            }
            try db.execute(sql: "DROP TABLE IF EXISTS chunks; DROP TABLE IF EXISTS entries")
            // `entries_key` serves a read in the order it returns, so that the body chunks it
            // joins are never copied into a sort.
            try db.execute(
                sql: """
                    CREATE TABLE entries (
                        id INTEGER PRIMARY KEY,
                        key TEXT NOT NULL,
                        varied BLOB NOT NULL,
                        head BLOB NOT NULL,
                        body_size INTEGER NOT NULL,
                        checksum INTEGER NOT NULL,
                        request_time DOUBLE NOT NULL,
                        response_time DOUBLE NOT NULL,
                        size INTEGER NOT NULL,
                        last_used INTEGER NOT NULL,
                        UNIQUE (key, varied)
                    );
                    CREATE INDEX entries_key ON entries (key, id);
                    CREATE INDEX entries_last_used ON entries (last_used);
                    CREATE TABLE chunks (
                        entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
                        seq INTEGER NOT NULL,
                        data BLOB NOT NULL,
                        PRIMARY KEY (entry_id, seq)
                    );
                    """)
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
        }

        // MARK: - Rows

        private static func evict(_ db: Database, capacity: Int) throws {
            var total = try Int.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(SUM(size), 0) FROM entries")) ?? 0
            guard total > capacity else { return }
            let cursor = try Row.fetchCursor(db, sql: "SELECT id, size FROM entries ORDER BY last_used")
            var victims: [Int64] = []
            while total > capacity, let row = try cursor.next() {
                guard let id: Int64 = value(row, 0) else { continue }
                victims.append(id)
                total -= value(row, 1) ?? 0
            }
            for id in victims { try db.execute(sql: "DELETE FROM entries WHERE id = ?", arguments: [id]) }
        }

        /// The value at `index` as `T`, or `nil` when it is `NULL` or of another type: GRDB's
        /// typed subscripts trap on a failed conversion, and a damaged file may hold anything.
        private static func value<T: DatabaseValueConvertible>(_ row: Row, _ index: Int) -> T? {
            T.fromDatabaseValue(row[index] as DatabaseValue)
        }
    }
#endif
