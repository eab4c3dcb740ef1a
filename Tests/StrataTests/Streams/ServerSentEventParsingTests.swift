import Foundation
import Strata
import StrataTestSupport
import Testing

/// The event stream interpretation of the WHATWG HTML standard, its own examples first,
/// then each rule of section 9.2.6 on its own.
@Suite struct ServerSentEventParsingTests {
    func events(_ text: String) async throws -> [ServerSentEvent] {
        try await collect(chunkedBody(text).serverSentEvents())
    }

    func events(_ bytes: [UInt8]) async throws -> [ServerSentEvent] {
        try await collect(chunkedBody([Data(bytes)]).serverSentEvents())
    }

    // MARK: The standard's examples

    @Test func stockTickerDataLinesAreJoinedWithLineFeeds() async throws {
        #expect(try await events("data: YHOO\ndata: +2\ndata: 10\n\n") == [ServerSentEvent(data: "YHOO\n+2\n10")])
    }

    @Test func idFieldsSetAndResetTheLastEventID() async throws {
        let stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
        #expect(
            try await events(stream) == [
                ServerSentEvent(data: "first event", id: "1"),
                ServerSentEvent(data: "second event", id: nil),
                ServerSentEvent(data: " third event", id: nil),
            ])
    }

    @Test func dataWithoutValueAppendsAnEmptyLineAndTheUnterminatedBlockIsDropped() async throws {
        #expect(
            try await events("data\n\ndata\ndata\n\ndata:") == [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")])
    }

    @Test func oneSpaceAfterTheColonIsRemoved() async throws {
        #expect(
            try await events("data:test\n\ndata: test\n\n") == [
                ServerSentEvent(data: "test"), ServerSentEvent(data: "test"),
            ])
    }

    // MARK: Each rule

    @Test func lineEndsAreCRLFOrLFOrCR() async throws {
        #expect(
            try await events("data: a\r\ndata: b\rdata: c\n\r\ndata: d\r\r") == [
                ServerSentEvent(data: "a\nb\nc"), ServerSentEvent(data: "d"),
            ])
    }

    @Test func aByteOrderMarkIsStrippedAtTheStartOnly() async throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try await events(bom + Array("data: a\n\n".utf8)) == [ServerSentEvent(data: "a")])
        // A second one is data (U+FEFF), and one after the start of a line is part of the line.
        #expect(
            try await events(bom + bom + Array("data: a\n\n".utf8)) == [])  // "\u{FEFF}data" is an unknown field
        #expect(
            try await events(Array("data: ".utf8) + bom + Array("\n\n".utf8)) == [ServerSentEvent(data: "\u{FEFF}")])
    }

    @Test func invalidUTF8IsReplaced() async throws {
        #expect(
            try await events(Array("data: a".utf8) + [0xFF, 0xE2, 0x82] + Array("b\n\n".utf8)) == [
                ServerSentEvent(data: "a\u{FFFD}\u{FFFD}b")
            ])
    }

    @Test func commentsAndUnknownFieldsAreIgnored() async throws {
        #expect(
            try await events(": keep-alive\nfoo: bar\ndata: x\n:another\n\n") == [ServerSentEvent(data: "x")])
    }

    @Test func eventTypeIsNilUnlessTheBlockNamesOne() async throws {
        #expect(
            try await events("event: add\ndata: 1\n\nevent:\ndata: 2\n\ndata: 3\n\nevent: message\ndata: 4\n\n") == [
                ServerSentEvent(event: "add", data: "1"), ServerSentEvent(data: "2"), ServerSentEvent(data: "3"),
                ServerSentEvent(event: "message", data: "4"),
            ])
    }

    @Test func anIDContainingNULIsIgnored() async throws {
        #expect(
            try await events(Array("id: 7\n\nid: 8".utf8) + [0] + Array("9\ndata: x\n\n".utf8)) == [
                ServerSentEvent(data: "x", id: "7")
            ])
    }

    @Test func anEmptyBlockDispatchesNothingButTheLastEventIDStays() async throws {
        #expect(try await events("id: 5\n\n\n\ndata: x\n\n") == [ServerSentEvent(data: "x", id: "5")])
    }

    @Test func retryCountsOnlyWhenAllDigits() async throws {
        #expect(
            try await events("retry: 1500\ndata: a\n\nretry: 15s\ndata: b\n\nretry: -1\ndata: c\n\nretry:\ndata: d\n\n")
                == [
                    ServerSentEvent(data: "a", retry: .milliseconds(1500)), ServerSentEvent(data: "b"),
                    ServerSentEvent(data: "c"), ServerSentEvent(data: "d"),
                ])
        // Digits beyond Int64 saturate rather than wrap.
        #expect(
            try await events("retry: 99999999999999999999999\ndata: a\n\n") == [
                ServerSentEvent(data: "a", retry: .milliseconds(Int64.max))
            ])
    }

    @Test func aFieldNameIsCaseSensitive() async throws {
        #expect(try await events("Data: a\ndata: b\n\n") == [ServerSentEvent(data: "b")])
    }

    @Test func aCRAtTheEndOfOneChunkAndALFAtTheStartOfTheNextEndOneLine() async throws {
        let body = chunkedBody([Data("data: a\r".utf8), Data("\ndata: b\r".utf8), Data("\n\r".utf8), Data("\n".utf8)])
        #expect(try await collect(body.serverSentEvents()) == [ServerSentEvent(data: "a\nb")])
    }

    @Test func anEventLargerThanTheLimitEndsTheStream() async throws {
        let long = String(repeating: "x", count: 100)
        // One line over the limit, inside one chunk and across chunks.
        let (before, error) = await collectUntilError(
            chunkedBody("data: ok\n\ndata: \(long)\n\n").serverSentEvents(maximumEventSize: 64))
        #expect(before == [ServerSentEvent(data: "ok")])
        #expect((error as? StreamFormatError).map { "\($0)" } == "\(StreamFormatError.tooLarge(limit: 64))")
        let pieces = (0..<10).map { _ in Data(String(repeating: "y", count: 10).utf8) }
        let (_, acrossChunks) = await collectUntilError(
            chunkedBody([Data("data: ".utf8)] + pieces).serverSentEvents(maximumEventSize: 64))
        #expect(acrossChunks is StreamFormatError)
        // Many short data lines whose joined data is over the limit.
        let lines = String(repeating: "data: 0123456789\n", count: 10) + "\n"
        let (_, joined) = await collectUntilError(chunkedBody(lines).serverSentEvents(maximumEventSize: 64))
        #expect(joined is StreamFormatError)
    }

    @Test func aReplayableBodyIsParsedAnewByEveryIterator() async throws {
        let events = chunkedBody("data: a\n\n").serverSentEvents()
        #expect(try await collect(events) == [ServerSentEvent(data: "a")])
        #expect(try await collect(events) == [ServerSentEvent(data: "a")])
    }
}
