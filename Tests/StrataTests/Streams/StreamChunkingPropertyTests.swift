import Foundation
import PropertyBased
import Strata
import StrataTestSupport
import Testing

/// Any chunking of a stream gives the same events, lines and records as the whole
/// stream in one chunk: cut at every byte, and at random places.
@Suite struct StreamChunkingPropertyTests {
    /// A stream with every line end, a BOM, comments, multi-byte text, ids, retries and an
    /// unterminated block at its end.
    static let eventStream =
        Data([0xEF, 0xBB, 0xBF])
        + Data(
            (": hi\r\nevent: add\r\ndata: é€😀\rdata\n\nid: 4\nretry: 250\r\n\r\ndata:x\r\rdata: y\n"
                + "id: 5\ndata: {\"x\":1}\r\n\n\u{FEFF}data: z\n\ndata: cut").utf8)
    static let jsonLines = Data("{\"x\":1,\"y\":2}\r\n\n{\"x\":-3,\"y\":4}\n  \n{\"x\":5,\"y\":6}".utf8)
    static let jsonSequence = Data("\u{1E}{\"x\":1,\"y\":2}\n\u{1E}\u{1E}[1,\n2]\n\u{1E}\"é\"\n".utf8)

    struct Point: Decodable, Equatable, Sendable {
        var x: Int
        var y: Int
    }

    /// Everything each parser made of a stream, errors included.
    struct Outcome: Equatable {
        var events: [ServerSentEvent]
        var lines: [String]
        var records: [JSON]
        var texts: [JSON]
        var errors: [String]
    }

    /// What each parser makes of `chunks`.
    static func outcome(_ chunks: [Data]) async -> Outcome {
        let body = chunkedBody(chunks)
        let (events, eventError) = await collectUntilError(body.serverSentEvents())
        let (lines, lineError) = await collectUntilError(body.lines())
        let (records, recordError) = await collectUntilError(body.jsonLines(of: JSON.self))
        let (texts, textError) = await collectUntilError(body.jsonSequence(of: JSON.self))
        return Outcome(
            events: events, lines: lines, records: records, texts: texts,
            errors: [eventError, lineError, recordError, textError].map(describe))
    }

    /// The error's case and where it happened: the decoder's own message (Foundation's
    /// error user info, in no fixed order) is left out.
    static func describe(_ error: (any Error)?) -> String {
        switch error {
        case nil: "no error"
        case .invalidRecord(let number, let mapping) as StreamFormatError:
            "invalidRecord(\(number), at: \(mapping.codingPath))"
        case let error?: "\(error)"
        }
    }

    @Test func cuttingAtEveryByteChangesNothing() async throws {
        let expected = try await collect(chunkedBody([Self.eventStream]).serverSentEvents())
        #expect(
            expected == [
                ServerSentEvent(event: "add", data: "é€😀\n"), ServerSentEvent(data: "x", id: "4"),
                ServerSentEvent(data: "y\n{\"x\":1}", id: "5"),
            ])
        let bytes = Self.eventStream.map { Data([$0]) }
        #expect(try await collect(chunkedBody(bytes).serverSentEvents()) == expected)
        let lines = try await collect(chunkedBody([Self.jsonLines]).jsonLines(of: Point.self))
        #expect(try await collect(chunkedBody(Self.jsonLines.map { Data([$0]) }).jsonLines(of: Point.self)) == lines)
        let values = try await collect(chunkedBody([Self.jsonSequence]).jsonSequence(of: JSON.self))
        #expect(values == [["x": 1, "y": 2], [1, 2], "é"])
        #expect(
            try await collect(chunkedBody(Self.jsonSequence.map { Data([$0]) }).jsonSequence(of: JSON.self)) == values)
    }

    @Test(arguments: [eventStream, jsonLines, jsonSequence])
    func randomCutsChangeNothing(stream: Data) async {
        let whole = await Self.outcome([stream])
        let cuts = Gen.int(in: 0...stream.count).array(of: 0...12)
        await propertyCheck(count: 200, input: cuts) { cuts in
            #expect(await Self.outcome(split(stream, at: cuts)) == whole)
        }
    }

    /// Random streams in which line ends, colons, RS, BOM bytes and field names are
    /// likelier than in uniform noise.
    static let noisyStreams = Generator<Data, Shrink.None<Data>> { rng in
        let pieces: [[UInt8]] = [
            [0x0A], [0x0D], [0x3A], [0x20], [0x1E], [0xEF, 0xBB, 0xBF], [0xFF], [0x00], Array("data".utf8),
            Array("id".utf8), Array("retry".utf8), Array("event".utf8), Array("12".utf8), Array("{}".utf8),
        ]
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0...120, using: &rng) {
            if Bool.random(using: &rng) {
                bytes += pieces[Int.random(in: 0..<pieces.count, using: &rng)]
            } else {
                bytes.append(UInt8.random(in: 0...255, using: &rng))
            }
        }
        return Data(bytes)
    }

    @Test func randomBytesNeverCrashAndAnyChunkingAgrees() async {
        await propertyCheck(count: 300, input: Self.noisyStreams, Gen.int(in: 0...300).array(of: 0...8)) {
            stream, cuts in
            let whole = await Self.outcome([stream])
            #expect(await Self.outcome(split(stream, at: cuts)) == whole)
        }
    }
}
