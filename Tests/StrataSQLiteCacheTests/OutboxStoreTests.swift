import Foundation
import GRDB
import HTTPTypes
import Strata
import Testing

@testable import StrataSQLiteCache

/// The two outbox stores keep the same contract: order, attempts, dead letters in their
/// place, limits counting dead letters; the SQLite one across reopening.
@Suite struct OutboxStoreTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case memory, sqlite
        var testDescription: String { rawValue }

        func make(limits: OutboxLimits = OutboxLimits()) throws -> any OutboxStore {
            switch self {
            case .memory: MemoryOutboxStore(limits: limits)
            case .sqlite: try SQLiteOutboxStore(path: try SQLiteCacheStoreTests.temporaryPath(), limits: limits)
            }
        }
    }

    /// An item as an outbox makes it, through a paused outbox over `store`.
    static func item(_ index: Int, group: String = "g", into store: any OutboxStore) throws -> OutboxItem {
        let outbox = Outbox(networker: Networker(transport: NoTransport()), store: store, startsPaused: true)
        return try outbox.enqueue(
            Endpoint<Data>(
                RequestDescription(
                    route: "https://api.example.com/notes/\(index)", method: .post, parameters: ["n": index])),
            group: group)
    }

    /// A transport the paused outboxes never reach.
    struct NoTransport: Transport {
        func send(_ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?) async throws -> (
            HTTPResponse, MessageBody?
        ) {
            throw TransportError(.connectionRefused)
        }
    }

    static func letter(_ item: OutboxItem) -> DeadLetter {
        DeadLetter(
            item: item, status: 422, responseFields: [OutboxItem.Field(name: "Content-Type", value: "text/plain")],
            responseBody: Data("no".utf8), reason: "refused", date: Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test(arguments: Kind.allCases)
    func itemsKeepTheirOrderAttemptsAndPlaceThroughADeadLetter(_ kind: Kind) throws {
        let store = try kind.make()
        let items = try (0..<4).map { try Self.item($0, into: store) }
        #expect(items.map(\.sequence) == [1, 2, 3, 4])
        #expect(try store.pendingItems().map(\.id) == items.map(\.id))
        #expect(try store.pendingItems()[0].idempotencyKey == items[0].idempotencyKey)
        #expect(
            try store.pendingItems()[0].fields.contains {
                $0.name == "Idempotency-Key" && $0.value == items[0].idempotencyKey
            })

        try store.recordFailedAttempt(of: items[1].id)
        try store.recordFailedAttempt(of: items[1].id)
        #expect(try store.pendingItems().map(\.failedAttempts) == [0, 2, 0, 0])

        try store.deadLetter(Self.letter(items[1]))
        try store.remove(items[0].id)
        #expect(try store.pendingItems().map(\.sequence) == [3, 4])
        #expect(try store.deadLetters() == [Self.letter(items[1])])

        try store.requeue(items[1].id)
        #expect(try store.pendingItems().map(\.sequence) == [2, 3, 4])
        #expect(try store.deadLetters().isEmpty)

        try store.deadLetter(Self.letter(items[2]))
        try store.discard(items[2].id)
        #expect(try store.pendingItems().map(\.sequence) == [2, 4])
        #expect(try store.deadLetters().isEmpty)
        // A removed item's sequence is never given again.
        #expect(try Self.item(9, into: store).sequence == 5)
    }

    @Test(arguments: Kind.allCases)
    func unknownItemsAreNotFound(_ kind: Kind) throws {
        let store = try kind.make()
        let item = try Self.item(0, into: store)
        let stranger = UUID()
        #expect(throws: OutboxError.notFound(stranger)) { try store.remove(stranger) }
        #expect(throws: OutboxError.notFound(stranger)) { try store.recordFailedAttempt(of: stranger) }
        #expect(throws: OutboxError.notFound(item.id)) { try store.requeue(item.id) }
        #expect(throws: OutboxError.notFound(item.id)) { try store.discard(item.id) }
        try store.deadLetter(Self.letter(item))
        #expect(throws: OutboxError.notFound(item.id)) { try store.deadLetter(Self.letter(item)) }
        #expect(throws: OutboxError.notFound(item.id)) { try store.remove(item.id) }
    }

    @Test(arguments: Kind.allCases)
    func limitsCountItemsAndBytesDeadLettersIncluded(_ kind: Kind) throws {
        let byCount = OutboxLimits(maxItems: 2)
        let counted = try kind.make(limits: byCount)
        let first = try Self.item(0, into: counted)
        _ = try Self.item(1, into: counted)
        try counted.deadLetter(Self.letter(first))
        #expect(throws: OutboxError.full(limits: byCount)) { try Self.item(2, into: counted) }
        try counted.discard(first.id)
        #expect(try Self.item(2, into: counted).sequence == 3)

        let probe = try Self.item(0, into: MemoryOutboxStore())
        let byBytes = OutboxLimits(maxBytes: probe.size * 2)
        let weighed = try kind.make(limits: byBytes)
        _ = try Self.item(0, into: weighed)
        _ = try Self.item(1, into: weighed)
        #expect(throws: OutboxError.full(limits: byBytes)) { try Self.item(2, into: weighed) }
        #expect(try weighed.pendingItems().count == 2)
    }

    @Test func aReopenedSQLiteStoreHoldsWhatWasWritten() throws {
        let path = try SQLiteCacheStoreTests.temporaryPath()
        let (kept, dead): (OutboxItem, OutboxItem)
        do {
            let store = try SQLiteOutboxStore(path: path)
            kept = try Self.item(0, group: "a", into: store)
            dead = try Self.item(1, group: "b", into: store)
            try store.recordFailedAttempt(of: kept.id)
            try store.deadLetter(Self.letter(dead))
        }
        let reopened = try SQLiteOutboxStore(path: path)
        #expect(reopened.recoveredFile == nil)
        var expected = kept
        expected.failedAttempts = 1
        #expect(try reopened.pendingItems() == [expected])
        #expect(try reopened.deadLetters() == [Self.letter(dead)])
        let check = try DatabaseQueue(path: path).read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        #expect(check == "ok")
    }

    @Test func aFileThatIsNotAnOutboxIsMovedAside() throws {
        let path = try SQLiteCacheStoreTests.temporaryPath()
        try Data("not a database, just bytes".utf8).write(to: URL(fileURLWithPath: path))
        let store = try SQLiteOutboxStore(path: path)
        let aside = try #require(store.recoveredFile)
        #expect(FileManager.default.contents(atPath: aside) == Data("not a database, just bytes".utf8))
        #expect(try store.pendingItems().isEmpty)
        #expect(try Self.item(0, into: store).sequence == 1)
    }
}
