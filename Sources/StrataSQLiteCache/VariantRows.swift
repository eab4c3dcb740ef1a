#if SQLiteCache
    import Foundation
    import GRDB
    import GRDBSQLite
    import Strata

    /// Reads the rows of ``SQLiteCacheStore/variants(for:)``'s query into checked responses.
    ///
    /// The rows come straight from SQLite's statement (GRDB's raw-pointer API): each blob is
    /// read in place where it lies and copied once, a body chunk into its body's buffer. A
    /// GRDB row cursor builds a column-name table per query and copies each value, which was
    /// a third of a hit's store work (measured with `scripts/callgrind.sh cache-sqlite-hit`).
    ///
    /// The query's columns, in order: `id`, `varied`, `head`, `body_size`, `checksum`,
    /// `request_time`, `response_time`, then a chunk's `data` (`NULL` for a body without
    /// chunks); an entry's rows are consecutive, its chunks in order.
    enum VariantRows {
        /// The responses of `statement`'s rows that pass their check, and the ids of the
        /// entries that do not.
        /// - Throws: GRDB's `DatabaseError` when SQLite fails to step the statement.
        static func read(_ statement: Statement, key: String, capacity: Int, in db: Database)
            throws -> (variants: [CachedResponse], damaged: [Int64])
        {
            try statement.setArguments([key])
            let raw = statement.sqliteStatement
            defer { sqlite3_reset(raw) }
            var keyCheck = EntryChecksum()
            keyCheck.addPart(key.utf8)
            var variants: [CachedResponse] = []
            var damaged: [Int64] = []
            var current: VariantReader?
            while true {
                let code = sqlite3_step(raw)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else {
                    throw DatabaseError(
                        resultCode: ResultCode(rawValue: code),
                        message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
                let id = integer(raw, 0)
                if current == nil || id != current?.id {
                    current?.finish(into: &variants, damaged: &damaged)
                    current = VariantReader(raw, id: id, check: keyCheck, capacity: capacity)
                }
                current?.append(blob(raw, 7))
            }
            current?.finish(into: &variants, damaged: &damaged)
            return (variants, damaged)
        }

        /// The integer in column `index`, `nil` when it holds another type.
        fileprivate static func integer(_ raw: SQLiteStatement, _ index: Int32) -> Int64? {
            sqlite3_column_type(raw, index) == SQLITE_INTEGER ? sqlite3_column_int64(raw, index) : nil
        }

        /// The number in column `index` (SQLite may hand back a whole `REAL` as an integer),
        /// `nil` when it holds another type.
        fileprivate static func double(_ raw: SQLiteStatement, _ index: Int32) -> Double? {
            switch sqlite3_column_type(raw, index) {
            case SQLITE_FLOAT, SQLITE_INTEGER: sqlite3_column_double(raw, index)
            default: nil
            }
        }

        /// The blob in column `index`, valid until the statement steps; `nil` when the column
        /// holds another type (`NULL` included).
        fileprivate static func blob(_ raw: SQLiteStatement, _ index: Int32) -> UnsafeRawBufferPointer? {
            guard sqlite3_column_type(raw, index) == SQLITE_BLOB else { return nil }
            // The pointer first, then the count (SQLite's order); an empty blob has no pointer.
            let start = sqlite3_column_blob(raw, index)
            let count = Int(sqlite3_column_bytes(raw, index))
            return UnsafeRawBufferPointer(start: count > 0 ? start : nil, count: start == nil ? 0 : count)
        }
    }

    /// One entry being read: its columns from its first row, then a body chunk from each of
    /// its rows, checked at the end.
    private struct VariantReader {
        /// The entry's id, `nil` when the row's is unreadable.
        let id: Int64?
        private var parts: (head: HTTPResponse, varied: [String: String], requestTime: Double, responseTime: Double)?
        private let declaredSize: Int64
        private let storedChecksum: Int64?
        private var check: EntryChecksum
        private var body: Data

        /// Reads the entry's columns from the row `raw` is on; `check` holds the key already.
        init(_ raw: SQLiteStatement, id: Int64?, check: EntryChecksum, capacity: Int) {
            self.id = id
            self.check = check
            declaredSize = VariantRows.integer(raw, 3) ?? -1
            storedChecksum = VariantRows.integer(raw, 4)
            // The declared size may be damaged too: it reserves nothing beyond the store's capacity.
            body = Data(capacity: Int(clamping: min(max(0, declaredSize), Int64(capacity))))
            guard let varied = VariantRows.blob(raw, 1), let head = VariantRows.blob(raw, 2), declaredSize >= 0,
                let requestTime = VariantRows.double(raw, 5), let responseTime = VariantRows.double(raw, 6)
            else { return }
            self.check.addPart(varied)
            self.check.addPart(head)
            self.check.addTimes(requestTime, responseTime)
            self.check.addLength(Int(clamping: declaredSize))
            guard let decodedHead = EntryCoding.decodeHead(head), let decodedVaried = EntryCoding.decodeVaried(varied)
            else { return }
            parts = (decodedHead, decodedVaried, requestTime, responseTime)
        }

        /// Adds a body chunk (`nil`: the row has none, or not a blob; the check decides).
        mutating func append(_ chunk: UnsafeRawBufferPointer?) {
            guard parts != nil, let chunk else { return }
            guard Int64(body.count + chunk.count) <= declaredSize else {
                parts = nil
                return
            }
            check.add(chunk)
            body.append(contentsOf: chunk)
        }

        /// Adds the entry to `variants` when it passes its check, else its id to `damaged`.
        func finish(into variants: inout [CachedResponse], damaged: inout [Int64]) {
            guard let parts, Int64(body.count) == declaredSize, check.value == storedChecksum else {
                if let id { damaged.append(id) }
                return
            }
            variants.append(
                CachedResponse(
                    head: parts.head, body: body,
                    requestTime: Date(timeIntervalSince1970: parts.requestTime),
                    responseTime: Date(timeIntervalSince1970: parts.responseTime),
                    variedFields: parts.varied))
        }
    }
#endif
