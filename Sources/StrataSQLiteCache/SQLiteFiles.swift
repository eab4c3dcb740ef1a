#if SQLiteCache
    import Foundation

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
    }
#endif
