import Foundation
import HTTPTypes
import Testing

@testable import Strata
@testable import StrataCore

/// The in-memory store: variants by secondary key, a byte bound, least recently used out first.
@Suite struct MemoryCacheStoreTests {
    static func key(_ path: String) -> CacheKey {
        CacheKey(method: "GET", scheme: "https", authority: "a.test", path: path)!
    }

    static func entry(_ body: Int, varied: [String: String] = [:]) -> CachedResponse {
        CachedResponse(
            head: HTTPResponse(status: .ok), body: Data(count: body), requestTime: CacheRulesTests.t0,
            responseTime: CacheRulesTests.t0, variedFields: varied)
    }

    @Test func variantsReplaceBySecondaryKey() async throws {
        let store = MemoryCacheStore()
        try await store.store(Self.entry(1, varied: ["accept": "a"]), for: Self.key("/x"))
        try await store.store(Self.entry(2, varied: ["accept": "b"]), for: Self.key("/x"))
        try await store.store(Self.entry(3, varied: ["accept": "a"]), for: Self.key("/x"))
        let variants = try await store.variants(for: Self.key("/x"))
        #expect(variants.map(\.body.count) == [3, 2])
        #expect(store.size == variants.reduce(0) { $0 + $1.cost })
        #expect(try await store.variants(for: Self.key("/y")).isEmpty)
    }

    @Test func evictsTheLeastRecentlyUsedKeyPastTheBound() async throws {
        let cost = Self.entry(100).cost
        let store = MemoryCacheStore(capacity: cost * 3)
        for path in ["/a", "/b", "/c"] { try await store.store(Self.entry(100), for: Self.key(path)) }
        _ = try await store.variants(for: Self.key("/a"))  // /b is now the least recently used
        try await store.store(Self.entry(100), for: Self.key("/d"))
        #expect(store.keys.map(\.uri) == ["https://a.test/c", "https://a.test/a", "https://a.test/d"])
        #expect(store.size == cost * 3)
        try await store.store(Self.entry(cost * 3), for: Self.key("/huge"))  // larger than the store: not kept
        #expect(store.keys.count == 3)
        #expect(try await store.variants(for: Self.key("/huge")).isEmpty)
        try await store.remove(Self.key("/a"))
        #expect(store.keys.map(\.uri) == ["https://a.test/c", "https://a.test/d"])
        try await store.removeAll()
        #expect(store.size == 0 && store.keys.isEmpty)
    }

    @Test func concurrentWritersStayWithinTheBound() async throws {
        let cost = Self.entry(64).cost
        let store = MemoryCacheStore(capacity: cost * 10)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    try? await store.store(Self.entry(64), for: Self.key("/\(index % 37)"))
                    _ = try? await store.variants(for: Self.key("/\((index * 7) % 37)"))
                }
            }
        }
        #expect(store.size <= cost * 10)
        #expect(store.keys.count == 10)
        #expect(store.size == cost * 10)
    }
}
