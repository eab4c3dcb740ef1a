import Foundation
import GRDB
import Strata

/// A ``CacheStore`` in a SQLite database (through GRDB), so that cached responses
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
///   (``recoveredFile`` says where) and a new store created in its place. Every body is
///   stored with its length and an FNV-1a hash and checked when read; a row that fails
///   the check is deleted and reads as a miss.
/// - **Schema version.** The database carries an application id and a schema version
///   (`PRAGMA application_id`, `user_version`); a store written by another schema
///   version is emptied and recreated (a cache loses nothing that matters).
/// - **Bound.** After each write, least recently used rows (read or written) are
///   deleted until the stored bytes (``CachedResponse/cost``) fit ``capacity``. A read is
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
    /// Keys read since the last write, oldest first: their recency is written with the next
    /// `store`, just before it evicts, so a hit takes no write transaction.
    private let pendingUses = Locked<[String]>([])

    /// The schema this code writes; another version is reset.
    static let schemaVersion = 1
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
            let aside = try Self.moveAside(path)
            self.pool = try Self.open(path)
            self.recoveredFile = aside
        }
    }

    /// The bytes held now.
    public func size() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM entries") ?? 0 }
    }

    /// The variants under `key`, most recently stored first; a hit makes them the most
    /// recently used. Rows whose body fails its check are deleted and skipped.
    public func variants(for key: CacheKey) async throws -> [CachedResponse] {
        let name = key.description
        // Read (and check the bodies) beside other readers; only the removal of damaged rows
        // takes the writer here, the recency update waits for the next store. The read is
        // GRDB's synchronous one, run on the calling thread: a short indexed read, where the
        // asynchronous one costs two thread hand-offs (most of a hit's time, measured).
        let (variants, damaged) = try readNow { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT id, head, body, body_hash, varied, request_time, response_time
                FROM entries WHERE key = ? ORDER BY id DESC
                """, arguments: [name])
            var variants: [CachedResponse] = []
            var damaged: [Int64] = []
            for row in rows {
                if let variant = Self.decode(row) {
                    variants.append(variant)
                } else if let id: Int64 = Self.value(row, "id") {
                    damaged.append(id)
                }
            }
            return (variants, damaged)
        }
        if !damaged.isEmpty {
            try await pool.write { db in
                for id in damaged { try db.execute(sql: "DELETE FROM entries WHERE id = ?", arguments: [id]) }
            }
        }
        if !variants.isEmpty { pendingUses.withLock { $0.append(name) } }
        return variants
    }

    /// Stores `response`, replacing the variant with the same secondary key, then evicts
    /// least recently used rows until the store fits. A response larger than the whole
    /// store is not kept (and the key's older copies are dropped).
    public func store(_ response: CachedResponse, for key: CacheKey) async throws {
        let name = key.description
        let cost = response.cost
        let capacity = self.capacity
        let head = try JSONEncoder().encode(response.head)
        let varied = try Self.variedKey(response.variedFields)
        let uses = pendingUses.withLock { uses in
            defer { uses.removeAll() }
            return uses
        }
        try await pool.write { db in
            for used in uses {
                try db.execute(sql: "UPDATE entries SET last_used = (SELECT COALESCE(MAX(last_used), 0) + 1 FROM entries) WHERE key = ?",
                               arguments: [used])
            }
            guard cost <= capacity else {
                try db.execute(sql: "DELETE FROM entries WHERE key = ?", arguments: [name])
                return
            }
            try db.execute(sql: """
                INSERT OR REPLACE INTO entries (key, varied, head, body, body_hash, request_time, response_time, size, last_used)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(last_used), 0) + 1 FROM entries))
                """, arguments: [name, varied, head, response.body, Self.hash(response.body),
                                 response.requestTime.timeIntervalSince1970, response.responseTime.timeIntervalSince1970, cost])
            try Self.evict(db, capacity: capacity)
        }
    }

    /// GRDB's synchronous read, from a synchronous context (an `async` caller gets the
    /// asynchronous overload otherwise).
    private func readNow<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.read(body)
    }

    /// Removes every variant under `key`.
    public func remove(_ key: CacheKey) async throws {
        let name = key.description
        try await pool.write { db in try db.execute(sql: "DELETE FROM entries WHERE key = ?", arguments: [name]) }
    }

    /// Removes everything.
    public func removeAll() async throws {
        try await pool.write { db in try db.execute(sql: "DELETE FROM entries") }
    }

    /// Closes the database; later calls throw.
    public func close() throws {
        try pool.close()
    }

    // MARK: - Opening

    private static func open(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
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
        if application == applicationID, version == schemaVersion { return }
        guard application == applicationID || tables == 0 else {
            throw DatabaseError(resultCode: .SQLITE_NOTADB, message: "not a Strata cache database")
        }
        try db.execute(sql: "DROP TABLE IF EXISTS entries")
        try db.execute(sql: """
            CREATE TABLE entries (
                id INTEGER PRIMARY KEY,
                key TEXT NOT NULL,
                varied TEXT NOT NULL,
                head BLOB NOT NULL,
                body BLOB NOT NULL,
                body_hash INTEGER NOT NULL,
                request_time DOUBLE NOT NULL,
                response_time DOUBLE NOT NULL,
                size INTEGER NOT NULL,
                last_used INTEGER NOT NULL,
                UNIQUE (key, varied)
            )
            """)
        try db.execute(sql: "CREATE INDEX entries_last_used ON entries (last_used)")
        try db.execute(sql: "PRAGMA application_id = \(applicationID)")
        try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
    }

    /// Moves the file at `path` (and its WAL and shared-memory files) aside.
    /// - Returns: the new path of the database file.
    private static func moveAside(_ path: String) throws -> String {
        let aside = "\(path).damaged-\(UUID().uuidString)"
        let files = FileManager.default
        for suffix in ["-wal", "-shm"] where files.fileExists(atPath: path + suffix) {
            try files.moveItem(atPath: path + suffix, toPath: aside + suffix)
        }
        try files.moveItem(atPath: path, toPath: aside)
        return aside
    }

    // MARK: - Rows

    private static func evict(_ db: Database, capacity: Int) throws {
        var total = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM entries") ?? 0
        guard total > capacity else { return }
        let cursor = try Row.fetchCursor(db, sql: "SELECT id, size FROM entries ORDER BY last_used")
        var victims: [Int64] = []
        while total > capacity, let row = try cursor.next() {
            guard let id: Int64 = value(row, "id") else { continue }
            victims.append(id)
            total -= value(row, "size") ?? 0
        }
        for id in victims { try db.execute(sql: "DELETE FROM entries WHERE id = ?", arguments: [id]) }
    }

    /// The stored response of `row`, or `nil` when any part of it fails to read or its
    /// body fails the hash check.
    private static func decode(_ row: Row) -> CachedResponse? {
        guard let headData: Data = value(row, "head"), let body: Data = value(row, "body"),
              let storedHash: Int64 = value(row, "body_hash"), storedHash == hash(body),
              let head = try? JSONDecoder().decode(HTTPResponse.self, from: headData),
              let variedText: String = value(row, "varied"),
              let varied = try? JSONDecoder().decode([String: String].self, from: Data(variedText.utf8)),
              let requestTime: Double = value(row, "request_time"), let responseTime: Double = value(row, "response_time")
        else { return nil }
        return CachedResponse(head: head, body: body, requestTime: Date(timeIntervalSince1970: requestTime),
                              responseTime: Date(timeIntervalSince1970: responseTime), variedFields: varied)
    }

    /// The value of `column` as `T`, or `nil` when it is missing, `NULL` or of another
    /// type: GRDB's typed subscripts trap on a failed conversion, and a damaged file may
    /// hold anything.
    private static func value<T: DatabaseValueConvertible>(_ row: Row, _ column: String) -> T? {
        guard let stored = row[column] as DatabaseValue? else { return nil }
        return T.fromDatabaseValue(stored)
    }

    /// The secondary key as canonical text: JSON with sorted keys.
    private static func variedKey(_ fields: [String: String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(fields), as: UTF8.self)
    }

    /// FNV-1a, 64 bits, as a signed integer for SQLite.
    static func hash(_ data: Data) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }
}
