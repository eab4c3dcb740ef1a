import Foundation
import Strata
import StrataTestSupport
import Testing

/// Lines, JSON Lines and JSON text sequences read from a body, into every model kind.
@Suite struct StreamRecordsTests {
    /// A plain `Decodable` record.
    struct Point: Decodable, Equatable, Sendable {
        var x: Int
        var y: Int
    }

    /// A raw-layer DTO.
    struct PointDTO: Codable, RawDecodable, Sendable {
        typealias Raw = JSON
        var x: Int
        var y: Int
    }

    /// An application model read through ``PointDTO``; it refuses negative coordinates.
    struct Position: DTODecodable, Equatable, Sendable {
        var sum: Int
        static func from(dto: PointDTO) throws -> Position {
            guard dto.x >= 0, dto.y >= 0 else { throw MappingError(type: Position.self, description: "negative") }
            return Position(sum: dto.x + dto.y)
        }
    }

    // MARK: Lines

    @Test func linesEndAtLFOrCRLFAndTheLastMayEndWithTheBody() async throws {
        #expect(try await collect(chunkedBody("a\r\nb\n\nc\rd\ne").lines()) == ["a", "b", "", "c\rd", "e"])
        #expect(try await collect(chunkedBody("a\n").lines()) == ["a"])
        #expect(try await collect(chunkedBody("").lines()) == [])
    }

    @Test func aLineSplitAcrossChunksIsWhole() async throws {
        let body = chunkedBody([Data("hel".utf8), Data("lo\r".utf8), Data("\nwor".utf8), Data("ld".utf8)])
        #expect(try await collect(body.lines()) == ["hello", "world"])
    }

    @Test func aLineLongerThanTheLimitEndsTheSequence() async throws {
        let (before, error) = await collectUntilError(
            chunkedBody("short\n0123456789abcdef\n").lines(maximumLineSize: 10))
        #expect(before == ["short"])
        #expect("\(error.map { "\($0)" } ?? "")" == "\(StreamFormatError.tooLarge(limit: 10))")
    }

    // MARK: JSON Lines

    @Test func jsonLinesDecodeEveryModelKind() async throws {
        let text = "{\"x\":1,\"y\":2}\r\n\n   \n{\"x\":3,\"y\":4}"
        #expect(
            try await collect(chunkedBody(text).jsonLines(of: Point.self)) == [Point(x: 1, y: 2), Point(x: 3, y: 4)])
        #expect(try await collect(chunkedBody(text).jsonLines(of: PointDTO.self)).map(\.x) == [1, 3])
        #expect(
            try await collect(chunkedBody(text).jsonLines(of: Position.self)) == [Position(sum: 3), Position(sum: 7)])
    }

    @Test func aLineThatDoesNotDecodeIsReportedWithItsNumberAndCodingPath() async throws {
        let text = "{\"x\":1,\"y\":2}\n\n{\"x\":1,\"y\":\"two\"}\n{\"x\":5,\"y\":6}\n"
        let (before, error) = await collectUntilError(chunkedBody(text).jsonLines(of: Point.self))
        #expect(before == [Point(x: 1, y: 2)])
        guard case .invalidRecord(let number, let mapping) = error as? StreamFormatError else {
            Issue.record("expected invalidRecord, got \(String(describing: error))")
            return
        }
        #expect(number == 3)
        #expect(mapping.codingPath == "y")
        #expect(mapping.typeName.hasSuffix("Point"))
    }

    @Test func aModelThatRefusesItsDTOIsReportedAtTheModelLayer() async throws {
        let (_, error) = await collectUntilError(chunkedBody("{\"x\":-1,\"y\":2}\n").jsonLines(of: Position.self))
        guard case .invalidRecord(1, let mapping) = error as? StreamFormatError else {
            Issue.record("expected invalidRecord 1, got \(String(describing: error))")
            return
        }
        #expect(mapping.layer == .model)
    }

    // MARK: JSON text sequences

    @Test func jsonSequenceRecordsStartWithRSAndEndWithLF() async throws {
        let text = "\u{1E}{\"x\":1,\"y\":2}\n\u{1E}\u{1E}{\"x\":3,\"y\":4}\n"
        #expect(
            try await collect(chunkedBody(text).jsonSequence(of: Point.self)) == [Point(x: 1, y: 2), Point(x: 3, y: 4)])
        #expect(
            try await collect(chunkedBody(text).jsonSequence(of: Position.self)) == [
                Position(sum: 3), Position(sum: 7),
            ])
    }

    @Test func aTruncatedRecordIsReportedNotMergedWithTheNext() async throws {
        // The second record lost its end (and its LF) before the third began.
        let text = "\u{1E}{\"x\":1,\"y\":2}\n\u{1E}{\"x\":3,\"y\u{1E}{\"x\":5,\"y\":6}\n"
        let (before, error) = await collectUntilError(chunkedBody(text).jsonSequence(of: Point.self))
        #expect(before == [Point(x: 1, y: 2)])
        #expect("\(error.map { "\($0)" } ?? "")" == "\(StreamFormatError.truncatedRecord(number: 2))")
        // A number cut off at the end of the stream is truncated too, though `12` would parse.
        let (_, cut) = await collectUntilError(chunkedBody("\u{1E}12").jsonSequence(of: Int.self))
        #expect("\(cut.map { "\($0)" } ?? "")" == "\(StreamFormatError.truncatedRecord(number: 1))")
    }

    @Test func bytesBeforeTheFirstRecordSeparatorAreRefused() async throws {
        let (_, error) = await collectUntilError(chunkedBody("{}\n\u{1E}{}\n").jsonSequence(of: [String: Int].self))
        #expect("\(error.map { "\($0)" } ?? "")" == "\(StreamFormatError.missingRecordSeparator)")
        #expect(try await collect(chunkedBody(" \n\u{1E}7\n").jsonSequence(of: Int.self)) == [7])
    }

    // MARK: Server-sent events decoded

    @Test func eventDataDecodesUntilTheTerminator() async throws {
        let text =
            ": ping\n\ndata: {\"x\":1,\"y\":2}\n\ndata: {\"x\":3,\"y\":4}\n\ndata: [DONE]\n\ndata: {\"x\":9,\"y\":9}\n\n"
        let points = chunkedBody(text).serverSentEvents().decoding(Point.self, until: "[DONE]")
        #expect(try await collect(points) == [Point(x: 1, y: 2), Point(x: 3, y: 4)])
        let positions = chunkedBody(text).serverSentEvents().decoding(Position.self, until: "[DONE]")
        #expect(try await collect(positions) == [Position(sum: 3), Position(sum: 7)])
        let (decoded, error) = await collectUntilError(chunkedBody(text).serverSentEvents().decoding(Point.self))
        #expect(decoded == [Point(x: 1, y: 2), Point(x: 3, y: 4)])
        guard case .invalidRecord(3, _) = error as? StreamFormatError else {
            Issue.record("expected invalidRecord 3, got \(String(describing: error))")
            return
        }
    }
}
