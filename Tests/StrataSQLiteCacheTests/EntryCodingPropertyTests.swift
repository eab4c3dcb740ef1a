import Foundation
import HTTPTypes
import PropertyBased
import StrataTestSupport
import Testing

@testable import StrataSQLiteCache

/// ``EntryCoding`` and ``EntryChecksum``, fed random heads, random secondary keys and
/// random bytes: what is written reads back equal, garbage reads as `nil` (or as a value
/// that writes and reads back the same) and never traps, and the check sees every
/// one-byte change.
@Suite(.runsAlone) struct EntryCodingPropertyTests {
    /// Bytes heavy in the ones that matter to the forms: small lengths, the format byte,
    /// continuation bits, letters.
    static func byte(using rng: inout some RandomNumberGenerator) -> UInt8 {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<3: UInt8.random(in: 0...8, using: &rng)
        case 3: 0x80 | UInt8.random(in: 0...3, using: &rng)
        case 4..<7: UInt8.random(in: 0x61...0x7A, using: &rng)
        default: UInt8.random(in: 0...255, using: &rng)
        }
    }

    static func bytes(_ count: ClosedRange<Int>, using rng: inout some RandomNumberGenerator) -> [UInt8] {
        (0..<Int.random(in: count, using: &rng)).map { _ in byte(using: &rng) }
    }

    /// A string of random scalars: ASCII, controls, non-ASCII, astral.
    static func text(_ count: ClosedRange<Int>, using rng: inout some RandomNumberGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: count, using: &rng) {
            let pools: [ClosedRange<UInt32>] = [0x20...0x7E, 0x00...0x1F, 0xA0...0x2FFF, 0x1F600...0x1F64F]
            let pool = pools[Int.random(in: 0..<pools.count, using: &rng)]
            if let scalar = Unicode.Scalar(UInt32.random(in: pool, using: &rng)) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    static let tokenCharacters = Array(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~".utf8)

    /// Random heads: any status code the type holds, any reason phrase, up to 12 fields of
    /// valid names (mixed case) and values of random bytes, any indexing strategy.
    static let heads = Generator<HTTPResponse, Shrink.None<HTTPResponse>> { rng in
        var fields = HTTPFields()
        let strategies: [HTTPField.DynamicTableIndexingStrategy] = [.automatic, .prefer, .avoid, .disallow]
        for _ in 0..<Int.random(in: 0...12, using: &rng) {
            let nameBytes = (0..<Int.random(in: 1...12, using: &rng)).map { _ in
                tokenCharacters.randomElement(using: &rng) ?? 0x61
            }
            guard let name = HTTPField.Name(String(decoding: nameBytes, as: UTF8.self)) else { continue }
            var field =
                Bool.random(using: &rng)
                ? HTTPField(name: name, lenientValue: bytes(0...40, using: &rng))
                : HTTPField(name: name, value: text(0...20, using: &rng))
            field.indexingStrategy = strategies.randomElement(using: &rng) ?? .automatic
            fields.append(field)
        }
        let status = HTTPResponse.Status(
            code: Int.random(in: 0...999, using: &rng), reasonPhrase: text(0...16, using: &rng))
        return HTTPResponse(status: status, headerFields: fields)
    }

    /// Random secondary keys of up to 6 fields.
    static let variedKeys = Generator<[String: String], Shrink.None<[String: String]>> { rng in
        var varied: [String: String] = [:]
        for _ in 0..<Int.random(in: 0...6, using: &rng) {
            varied[text(0...10, using: &rng)] = text(0...16, using: &rng)
        }
        return varied
    }

    static let garbage = Generator<[UInt8], Shrink.None<[UInt8]>> { rng in bytes(0...80, using: &rng) }

    /// The value's fields, with what `==` may leave out: raw names, value bytes, strategies.
    static func details(_ head: HTTPResponse) -> [String] {
        [String(head.status.code), head.status.reasonPhrase]
            + head.headerFields.map { field in
                "\(field.name.rawName)|\(field.withUnsafeBytesOfValue { Array($0) })|\(field.indexingStrategy)"
            }
    }

    static func decodeHead(_ bytes: [UInt8]) -> HTTPResponse? {
        bytes.withUnsafeBytes(EntryCoding.decodeHead)
    }

    static func decodeVaried(_ bytes: [UInt8]) -> [String: String]? {
        bytes.withUnsafeBytes(EntryCoding.decodeVaried)
    }

    @Test func headsRoundTripExactly() async {
        await propertyCheck(count: 1500, input: Self.heads) { head in
            let bytes = EntryCoding.encode(head)
            let decoded = try #require(Self.decodeHead(bytes))
            #expect(decoded == head)
            #expect(Self.details(decoded) == Self.details(head))
            // Any cut-short form is not a head.
            if !bytes.isEmpty {
                #expect(Self.decodeHead(Array(bytes.dropLast(Int.random(in: 1...bytes.count)))) == nil)
            }
            #expect(Self.decodeHead(bytes + [0]) == nil)
        }
    }

    @Test func variedKeysRoundTripExactlyAndAreCanonical() async {
        await propertyCheck(count: 1500, input: Self.variedKeys) { varied in
            let bytes = EntryCoding.encode(varied)
            #expect(Self.decodeVaried(bytes) == varied)
            #expect(EntryCoding.encode(varied.merging([:]) { first, _ in first }) == bytes)
            #expect(Self.decodeVaried(bytes + [0]) == nil)
        }
    }

    @Test func randomBytesAreNoHeadOrAHeadThatRoundTrips() async {
        await propertyCheck(count: 4000, input: Self.garbage) { bytes in
            // With the format byte in front, half of them get past the first check.
            for candidate in [bytes, [EntryCoding.headFormat] + bytes] {
                if let head = Self.decodeHead(candidate) {
                    let again = try #require(Self.decodeHead(EntryCoding.encode(head)))
                    #expect(Self.details(again) == Self.details(head))
                }
            }
        }
    }

    @Test func randomBytesAreNoSecondaryKeyOrExactlyOne() async {
        await propertyCheck(count: 4000, input: Self.garbage) { bytes in
            if let varied = Self.decodeVaried(bytes) {
                // Decoding accepts only the one form encoding writes (sorted, no repeats).
                #expect(EntryCoding.encode(varied) == bytes)
            }
        }
    }

    /// A number written longer than it needs (`80 00` for 0 entries) is not the form the
    /// encoder writes, so it is no secondary key (a random input found it).
    @Test func overlongNumbersAreRefused() {
        #expect(Self.decodeVaried([0]) == [:])
        #expect(Self.decodeVaried([0x80, 0]) == nil)
        #expect(Self.decodeVaried([0x81, 0]) == nil)
    }

    @Test func mutatedHeadsNeverTrap() async {
        await propertyCheck(count: 1500, input: Self.heads, Gen.int(in: 0...1_000_000), Gen.int(in: 0...255)) {
            head, position, value in
            var bytes = EntryCoding.encode(head)
            bytes[position % bytes.count] = UInt8(value)
            if let decoded = Self.decodeHead(bytes) {
                #expect(Self.decodeHead(EntryCoding.encode(decoded)).map(Self.details) == Self.details(decoded))
            }
        }
    }

    @Test func theChecksumIgnoresSplitsAndSeesEveryOneByteChange() async {
        await propertyCheck(count: 1500, input: Self.garbage, Gen.int(in: 0...1_000_000), Gen.int(in: 1...255)) {
            bytes, position, flip in
            var whole = EntryChecksum()
            whole.addLength(bytes.count)
            bytes.withUnsafeBytes { whole.add($0) }
            var pieces = EntryChecksum()
            pieces.addLength(bytes.count)
            var start = 0
            var rng = SystemRandomNumberGenerator()
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 0...11, using: &rng))
                bytes[start..<end].withUnsafeBytes { pieces.add($0) }
                start = end
            }
            #expect(pieces.value == whole.value)
            guard !bytes.isEmpty else { return }
            var changed = bytes
            changed[position % bytes.count] ^= UInt8(flip)
            var other = EntryChecksum()
            other.addLength(changed.count)
            changed.withUnsafeBytes { other.add($0) }
            #expect(other.value != whole.value)
            // The same bytes split differently between two parts differ too.
            var moved = EntryChecksum()
            moved.addPart(bytes.dropLast())
            moved.addPart(bytes.suffix(1))
            var kept = EntryChecksum()
            kept.addPart(bytes)
            kept.addPart([UInt8]())
            #expect(moved.value != kept.value)
        }
    }
}
