import Foundation
import GRDB
import Strata
import Testing

@testable import StrataSQLiteCache

/// The SQLite store: persistence, the byte bound, schema versions, damaged and foreign
/// files, tampered rows, concurrent use, and the cache middleware on top of it.
@Suite struct SQLiteCacheStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    static func temporaryPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("cache.sqlite").path
    }

    static func key(_ path: String) -> CacheKey {
        CacheKey(method: "GET", scheme: "https", authority: "a.test", path: path)!
    }

    static func entry(_ text: String, size: Int = 0, varied: [String: String] = [:]) -> CachedResponse {
        CachedResponse(
            head: HTTPResponse(status: .ok, headerFields: [.cacheControl: "max-age=60", .eTag: "\"\(text)\""]),
            body: Data(text.utf8) + Data(count: size), requestTime: t0, responseTime: t0 + 1, variedFields: varied)
    }

    @Test func responsesSurviveClosingAndReopening() async throws {
        let path = try Self.temporaryPath()
        let store = try SQLiteCacheStore(path: path)
        try await store.store(Self.entry("en", varied: ["accept-language": "en"]), for: Self.key("/a"))
        try await store.store(Self.entry("de", varied: ["accept-language": "de"]), for: Self.key("/a"))
        try await store.store(Self.entry("en2", varied: ["accept-language": "en"]), for: Self.key("/a"))
        try store.close()
        let reopened = try SQLiteCacheStore(path: path)
        #expect(reopened.recoveredFile == nil)
        let variants = try await reopened.variants(for: Self.key("/a"))
        #expect(
            variants == [
                Self.entry("en2", varied: ["accept-language": "en"]),
                Self.entry("de", varied: ["accept-language": "de"]),
            ])
        #expect(try await reopened.variants(for: Self.key("/b")).isEmpty)
        try await reopened.remove(Self.key("/a"))
        #expect(try await reopened.variants(for: Self.key("/a")).isEmpty)
        #expect(try await reopened.size() == 0)
    }

    @Test func evictsTheLeastRecentlyUsedPastTheBound() async throws {
        let cost = Self.entry("x", size: 1000).cost
        let store = try SQLiteCacheStore(path: try Self.temporaryPath(), capacity: cost * 3)
        for path in ["/a", "/b", "/c"] { try await store.store(Self.entry("x", size: 1000), for: Self.key(path)) }
        _ = try await store.variants(for: Self.key("/a"))
        try await store.store(Self.entry("x", size: 1000), for: Self.key("/d"))
        #expect(try await store.variants(for: Self.key("/b")).isEmpty)
        for path in ["/a", "/c", "/d"] { #expect(try await store.variants(for: Self.key(path)).count == 1) }
        #expect(try await store.size() == cost * 3)
        try await store.store(Self.entry("huge", size: cost * 3), for: Self.key("/huge"))
        #expect(try await store.variants(for: Self.key("/huge")).isEmpty)
        #expect(try await store.size() == cost * 3)
    }

    @Test func aFileOfRandomBytesIsMovedAsideAndReplaced() async throws {
        let path = try Self.temporaryPath()
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try garbage.write(to: URL(fileURLWithPath: path))
        let store = try SQLiteCacheStore(path: path)
        let aside = try #require(store.recoveredFile)
        #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == garbage)
        try await store.store(Self.entry("ok"), for: Self.key("/a"))
        #expect(try await store.variants(for: Self.key("/a")) == [Self.entry("ok")])
    }

    @Test func aTruncatedFileIsMovedAsideAndNoWrongBodyIsServed() async throws {
        let path = try Self.temporaryPath()
        let store = try SQLiteCacheStore(path: path)
        for index in 0..<40 {
            try await store.store(Self.entry("body \(index)", size: 3000), for: Self.key("/\(index)"))
        }
        try store.close()
        let full = try Data(contentsOf: URL(fileURLWithPath: path))
        try full.prefix(full.count / 2).write(to: URL(fileURLWithPath: path))
        let reopened = try SQLiteCacheStore(path: path)
        #expect(reopened.recoveredFile != nil)
        for index in 0..<40 {
            let variants = try await reopened.variants(for: Self.key("/\(index)"))
            #expect(variants.isEmpty || variants == [Self.entry("body \(index)", size: 3000)])
        }
    }

    @Test func anotherProgramsDatabaseIsMovedAsideAndAnOlderSchemaIsReset() async throws {
        let foreignPath = try Self.temporaryPath()
        let foreign = try DatabaseQueue(path: foreignPath)
        try await foreign.write { db in
            try db.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')")
        }
        try foreign.close()
        let store = try SQLiteCacheStore(path: foreignPath)
        let aside = try #require(store.recoveredFile)
        let moved = try DatabaseQueue(path: aside)
        #expect(try await moved.read { db in try String.fetchOne(db, sql: "SELECT text FROM notes") } == "keep me")

        let olderPath = try Self.temporaryPath()
        let older = try SQLiteCacheStore(path: olderPath)
        try await older.store(Self.entry("old"), for: Self.key("/a"))
        try older.close()
        let raw = try DatabaseQueue(path: olderPath)
        try await raw.write { db in try db.execute(sql: "PRAGMA user_version = 0") }
        try raw.close()
        let reset = try SQLiteCacheStore(path: olderPath)
        #expect(reset.recoveredFile == nil)
        #expect(try await reset.variants(for: Self.key("/a")).isEmpty)
    }

    @Test func aTamperedBodyIsAMissAndIsDeleted() async throws {
        let path = try Self.temporaryPath()
        let store = try SQLiteCacheStore(path: path)
        try await store.store(Self.entry("genuine"), for: Self.key("/a"))
        let raw = try DatabasePool(path: path)
        try await raw.write { db in try db.execute(sql: "UPDATE chunks SET data = ?", arguments: [Data("forged!".utf8)])
        }
        #expect(try await store.variants(for: Self.key("/a")).isEmpty)
        #expect(try await raw.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries") } == 0)
        try raw.close()
    }

    /// The rows of the store's tables, read beside it.
    static func count(_ table: String, in path: String) async throws -> Int? {
        let raw = try DatabaseQueue(path: path)
        defer { try? raw.close() }
        return try await raw.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") }
    }

    static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: count)
        for index in stride(from: 0, to: count, by: 8) {
            withUnsafeBytes(of: generator.next() as UInt64) { word in
                for offset in 0..<min(8, count - index) { bytes[index + offset] = word[offset] }
            }
        }
        return Data(bytes)
    }

    @Test func aBodyOfSeveralChunksRoundTripsByteExactly() async throws {
        let path = try Self.temporaryPath()
        let store = try SQLiteCacheStore(path: path, capacity: 4 * 1024 * 1024)
        let body = Self.randomBytes(1024 * 1024 + 3)
        let entry = CachedResponse(
            head: HTTPResponse(status: .ok, headerFields: [.contentType: "application/octet-stream"]),
            body: body, requestTime: Self.t0, responseTime: Self.t0 + 2, variedFields: ["accept": "*/*"])
        try await store.store(entry, for: Self.key("/big"))
        // A slice of a larger buffer (indices not starting at 0) is stored as itself.
        let sliced = CachedResponse(
            head: entry.head, body: (Data([9, 9]) + body)[2...], requestTime: Self.t0,
            responseTime: Self.t0 + 2, variedFields: ["accept": "text/plain"])
        try await store.store(sliced, for: Self.key("/big"))
        #expect(try await Self.count("chunks", in: path) == 2 * (1024 * 1024 / SQLiteCacheStore.chunkSize + 1))
        try store.close()
        let reopened = try SQLiteCacheStore(path: path, capacity: 4 * 1024 * 1024)
        let variants = try await reopened.variants(for: Self.key("/big"))
        #expect(variants.map(\.body) == [body, body])
        #expect(variants.map(\.variedFields) == [["accept": "text/plain"], ["accept": "*/*"]])
        #expect(variants.last == entry)
        // An empty body has no chunk at all.
        try await reopened.store(Self.entry(""), for: Self.key("/empty"))
        #expect(try await reopened.variants(for: Self.key("/empty")) == [Self.entry("")])
        #expect(try await Self.count("chunks", in: path) == 2 * (1024 * 1024 / SQLiteCacheStore.chunkSize + 1))
    }

    @Test(arguments: [
        "DELETE FROM chunks WHERE seq = 3",
        "UPDATE chunks SET data = randomblob(length(data)) WHERE seq = 2",
        "UPDATE chunks SET seq = 100 WHERE seq = 0",
        "UPDATE chunks SET data = substr(data, 1, 10) WHERE seq = 7",
        "UPDATE entries SET body_size = body_size - 1",
        "UPDATE entries SET key = 'GET https://a.test/other'",
    ])
    func aDamagedChunkedEntryIsAMissAndIsDeleted(damage: String) async throws {
        let path = try Self.temporaryPath()
        let store = try SQLiteCacheStore(path: path, capacity: 4 * 1024 * 1024)
        let entry = Self.entry("big", size: 1024 * 1024)
        try await store.store(entry, for: Self.key("/big"))
        let raw = try DatabasePool(path: path)
        try await raw.write { db in try db.execute(sql: damage) }
        try raw.close()
        #expect(try await store.variants(for: Self.key("/big")).isEmpty)
        #expect(try await store.variants(for: Self.key("/other")).isEmpty)
        #expect(try await Self.count("entries", in: path) == 0)
        #expect(try await Self.count("chunks", in: path) == 0)
        try await store.store(entry, for: Self.key("/big"))
        #expect(try await store.variants(for: Self.key("/big")) == [entry])
    }

    @Test func evictionKeepsTheByteBoundWithChunkedBodies() async throws {
        let path = try Self.temporaryPath()
        let size = 3 * SQLiteCacheStore.chunkSize + 100
        let cost = Self.entry("x", size: size).cost
        let store = try SQLiteCacheStore(path: path, capacity: cost * 3 + cost / 2)
        for path in ["/a", "/b", "/c"] { try await store.store(Self.entry("x", size: size), for: Self.key(path)) }
        _ = try await store.variants(for: Self.key("/a"))
        try await store.store(Self.entry("x", size: size), for: Self.key("/d"))
        #expect(try await store.size() == cost * 3)
        #expect(try await store.variants(for: Self.key("/b")).isEmpty)
        for path in ["/a", "/c", "/d"] {
            #expect(try await store.variants(for: Self.key(path)) == [Self.entry("x", size: size)])
        }
        #expect(try await Self.count("chunks", in: path) == 3 * 4)
        try await store.removeAll()
        #expect(try await store.size() == 0)
        #expect(try await Self.count("chunks", in: path) == 0)
    }

    @Test func aVersionOneStoreIsResetAndWorks() async throws {
        let path = try Self.temporaryPath()
        let raw = try DatabaseQueue(path: path)
        try await raw.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE entries (
                        id INTEGER PRIMARY KEY, key TEXT NOT NULL, varied TEXT NOT NULL, head BLOB NOT NULL,
                        body BLOB NOT NULL, body_hash INTEGER NOT NULL, request_time DOUBLE NOT NULL,
                        response_time DOUBLE NOT NULL, size INTEGER NOT NULL, last_used INTEGER NOT NULL,
                        UNIQUE (key, varied));
                    CREATE INDEX entries_last_used ON entries (last_used);
                    INSERT INTO entries VALUES (1, 'GET https://a.test/a', '{}', '{"status":200}', x'6f6c64', 0, 0, 0, 67, 1);
                    PRAGMA application_id = 1398035011;
                    PRAGMA user_version = 1;
                    """)
        }
        try raw.close()
        let store = try SQLiteCacheStore(path: path)
        #expect(store.recoveredFile == nil)
        #expect(try await store.variants(for: Self.key("/a")).isEmpty)
        #expect(try await store.size() == 0)
        try await store.store(Self.entry("new"), for: Self.key("/a"))
        #expect(try await store.variants(for: Self.key("/a")) == [Self.entry("new")])
        let reopened = try DatabaseQueue(path: path)
        #expect(try await reopened.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == 2)
        try reopened.close()
    }

    @Test func concurrentReadersAndWritersOnTwoStoresOfOneFile() async throws {
        let path = try Self.temporaryPath()
        let first = try SQLiteCacheStore(path: path)
        let second = try SQLiteCacheStore(path: path)
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let store = index.isMultiple(of: 2) ? first : second
                    let key = Self.key("/\(index % 20)")
                    try await store.store(Self.entry("v\(index % 20)", size: 500), for: key)
                    let read = try await (index.isMultiple(of: 3) ? second : first).variants(for: key)
                    return read == [Self.entry("v\(index % 20)", size: 500)] ? 0 : 1
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(
            try await first.size() == Self.entry("v0", size: 500).cost * 10 + Self.entry("v10", size: 500).cost * 10)
    }

    /// A transport that answers every request with one cacheable response and counts them.
    struct CountingTransport: Transport {
        let count = Locked(0)
        func send(_ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?) async throws -> (
            HTTPResponse, MessageBody?
        ) {
            let number = count.withLock {
                $0 += 1
                return $0
            }
            return (HTTPResponse(status: .ok, headerFields: [.cacheControl: "max-age=60"]), MessageBody("v\(number)"))
        }
    }

    @Test func theCacheMiddlewareServesFromTheStoreAfterARestart() async throws {
        let path = try Self.temporaryPath()
        let transport = CountingTransport()
        let endpoint = Endpoint<String>(RequestDescription(route: "https://api.test/items"))
        do {
            let networker = Networker(
                transport: transport, middleware: [CacheMiddleware(store: try SQLiteCacheStore(path: path))])
            #expect(try await networker.send(endpoint) == "v1")
        }
        let restarted = Networker(
            transport: transport, middleware: [CacheMiddleware(store: try SQLiteCacheStore(path: path))])
        let response = try await restarted.response(for: endpoint)
        #expect(response.value == "v1")
        #expect(response.cache?.source == .cache)
        #expect(transport.count.withLock { $0 } == 1)
    }
}
