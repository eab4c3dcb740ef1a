#if SQLiteCache
    import Foundation
    import GRDB

    /// What the SQLite stores do with files they cannot open.
    enum SQLiteFiles {
        /// Moves a damaged or foreign database at `path` (and its WAL files) aside, and says
        /// where.
        static func moveAside(_ path: String) throws -> String {
            let aside = "\(path).damaged-\(UUID().uuidString)"
            let files = FileManager.default
            for suffix in ["-wal", "-shm"] where files.fileExists(atPath: path + suffix) {
                try files.moveItem(atPath: path + suffix, toPath: aside + suffix)
            }
            try files.moveItem(atPath: path, toPath: aside)
            return aside
        }

        /// Opens the database at `path` in WAL mode, with `PRAGMA synchronous` set to
        /// `synchronous`, checks that it is sound and either empty or `what` (its
        /// `application_id` is `applicationID`), claims it, and runs `prepare` in the same
        /// write transaction.
        /// - Throws: when the file is damaged or another program's database (the queue is
        ///   closed then), or what `prepare` throws.
        static func openQueue<Prepared>(
            _ path: String, applicationID: Int, what: String, synchronous: String,
            prepare: (Database) throws -> Prepared
        ) throws -> (DatabaseQueue, Prepared) {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
            }
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            do {
                let prepared = try queue.write { db in
                    guard try String.fetchOne(db, sql: "PRAGMA quick_check") == "ok" else {
                        throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "quick_check failed")
                    }
                    let application = try Int.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                    let tables = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0
                    guard application == applicationID || (application == 0 && tables == 0) else {
                        throw DatabaseError(resultCode: .SQLITE_NOTADB, message: "not a Strata \(what) database")
                    }
                    try db.execute(sql: "PRAGMA application_id = \(applicationID)")
                    return try prepare(db)
                }
                return (queue, prepared)
            } catch {
                try? queue.close()
                throw error
            }
        }
    }
#endif
