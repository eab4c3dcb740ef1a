#if SQLiteCache
    import Foundation
    import GRDB
    import Strata

    /// An `OutboxStore` in a SQLite database (through GRDB, WAL, every commit synced): an
    /// outbox's items survive the process being killed at any point and the device
    /// restarting.
    ///
    /// ```swift
    /// let store = try SQLiteOutboxStore(path: supportDirectory.appending(path: "outbox.sqlite").path)
    /// let outbox = Outbox(networker: networker, store: store)
    /// ```
    ///
    /// - Each change is one transaction: an item is either pending or answered, never half
    ///   of each. An item keeps its row (and its place) from `append` to its final answer;
    ///   a dead letter is the same row with the answer beside it.
    /// - Bounded: `append` counts the items and bytes held in the same transaction and
    ///   refuses with `OutboxError.full(limits:)`.
    /// - A file that is not an outbox database (random bytes, a damaged or foreign one) is
    ///   moved aside (``recoveredFile``) and a new store created; a row that no longer reads
    ///   as an item is left in the file and skipped.
    public final class SQLiteOutboxStore: OutboxStore {
        /// The database file.
        public let path: String
        /// Where a damaged or foreign file found at ``path`` was moved, when opening found one.
        public let recoveredFile: String?
        /// How much the store holds at most.
        public let limits: OutboxLimits
        private let queue: DatabaseQueue

        /// `PRAGMA application_id` of a Strata outbox database ("STRO").
        static let applicationID = 0x5354_524F

        /// Opens the store at `path`, creating it (or replacing a damaged or foreign file,
        /// which is moved aside) as needed.
        /// - Throws: GRDB's `DatabaseError` or a file system error when no store can be
        ///   created at `path` at all.
        public init(path: String, limits: OutboxLimits = OutboxLimits()) throws {
            self.path = path
            self.limits = limits
            do {
                queue = try Self.open(path)
                recoveredFile = nil
            } catch {
                let aside = try SQLiteFiles.moveAside(path)
                queue = try Self.open(path)
                recoveredFile = aside
            }
        }

        /// Adds `item` after the others, in one transaction with the limits' check.
        public func append(_ item: OutboxItem) throws -> OutboxItem {
            let encoder = JSONEncoder()
            return try queue.write { db in
                let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), COALESCE(SUM(size), 0) FROM items")
                let count = row.flatMap { Int.fromDatabaseValue($0[0] as DatabaseValue) } ?? 0
                let bytes = row.flatMap { Int.fromDatabaseValue($0[1] as DatabaseValue) } ?? 0
                guard limits.admits(item, count: count, bytes: bytes) else {
                    throw OutboxError.full(limits: limits)
                }
                try db.execute(
                    sql: "INSERT INTO items (id, item, size) VALUES (?, ?, ?)",
                    arguments: [item.id.uuidString, try encoder.encode(item), item.size])
                var stored = item
                stored.sequence = db.lastInsertedRowID
                return stored
            }
        }

        /// The pending items, in order.
        public func pendingItems() throws -> [OutboxItem] {
            try queue.read { db in
                try Self.items(db, sql: "SELECT sequence, failed_attempts, item FROM items WHERE dead IS NULL")
            }
        }

        /// Counts a failed attempt of `id`.
        public func recordFailedAttempt(of id: UUID) throws {
            try change(id, sql: "UPDATE items SET failed_attempts = failed_attempts + 1 WHERE id = ? AND dead IS NULL")
        }

        /// Removes the pending item `id`.
        public func remove(_ id: UUID) throws {
            try change(id, sql: "DELETE FROM items WHERE id = ? AND dead IS NULL")
        }

        /// Keeps the answer of `letter` beside its item, which stops being pending.
        public func deadLetter(_ letter: DeadLetter) throws {
            let dead = try JSONEncoder().encode(letter)
            try queue.write { db in
                try db.execute(
                    sql: "UPDATE items SET dead = ? WHERE id = ? AND dead IS NULL",
                    arguments: [dead, letter.id.uuidString])
                guard db.changesCount == 1 else { throw OutboxError.notFound(letter.id) }
            }
        }

        /// The dead letters, in order.
        public func deadLetters() throws -> [DeadLetter] {
            let decoder = JSONDecoder()
            return try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT dead FROM items WHERE dead IS NOT NULL ORDER BY sequence")
                    .compactMap { row in
                        Data.fromDatabaseValue(row[0] as DatabaseValue).flatMap {
                            try? decoder.decode(DeadLetter.self, from: $0)
                        }
                    }
            }
        }

        /// Makes the dead letter `id` pending again, in its place.
        public func requeue(_ id: UUID) throws {
            try change(id, sql: "UPDATE items SET dead = NULL WHERE id = ? AND dead IS NOT NULL")
        }

        /// Deletes the dead letter `id`.
        public func discard(_ id: UUID) throws {
            try change(id, sql: "DELETE FROM items WHERE id = ? AND dead IS NOT NULL")
        }

        /// Runs `sql` on the row of `id` in a transaction; throws when it changed none.
        private func change(_ id: UUID, sql: String) throws {
            try queue.write { db in
                try db.execute(sql: sql, arguments: [id.uuidString])
                guard db.changesCount == 1 else { throw OutboxError.notFound(id) }
            }
        }

        /// The items `sql` selects (sequence, failed attempts, item), in order; rows that
        /// do not read as an item are skipped.
        private static func items(_ db: Database, sql: String) throws -> [OutboxItem] {
            let decoder = JSONDecoder()
            // A damaged row may hold anything: read it without GRDB's trapping conversions.
            return try Row.fetchAll(db, sql: sql + " ORDER BY sequence").compactMap { row in
                guard let sequence = Int64.fromDatabaseValue(row[0] as DatabaseValue),
                    let failed = Int.fromDatabaseValue(row[1] as DatabaseValue),
                    let data = Data.fromDatabaseValue(row[2] as DatabaseValue),
                    var item = try? decoder.decode(OutboxItem.self, from: data)
                else { return nil }
                item.sequence = sequence
                item.failedAttempts = failed
                return item
            }
        }

        /// Opens the database and checks it is an outbox (or empty).
        private static func open(_ path: String) throws -> DatabaseQueue {
            // An outbox keeps what the user did: every commit reaches the disk (FULL).
            try SQLiteFiles.openQueue(path, applicationID: applicationID, what: "outbox", synchronous: "FULL") { db in
                // AUTOINCREMENT: a sequence is never given twice, even after the last row was
                // deleted.
                try db.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS items (
                            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                            id TEXT NOT NULL UNIQUE,
                            item BLOB NOT NULL,
                            size INTEGER NOT NULL,
                            failed_attempts INTEGER NOT NULL DEFAULT 0,
                            dead BLOB)
                        """)
            }.0
        }
    }
#endif
