import Foundation
import Testing

@testable import Strata
@testable import StrataCore

@Suite struct ModelLayerTests {
    static let userJSON =
        #"{"name":"Ann","age":31,"type":0,"photos":[{"id":"p1","ref":"https://img/1"},{"id":"p2","ref":"https://img/2"}]}"#

    @Test func bytesToDTOToAppModel() throws {
        let entry = try UserEntry.decode(rawBody: Data(Self.userJSON.utf8), using: JSONDecoder())
        let user = try User.from(dto: entry)
        #expect(
            user
                == User(
                    name: "Ann", age: 31, type: .owner,
                    photos: [
                        Photo(id: "p1", image: "https://img/1"), Photo(id: "p2", image: "https://img/2"),
                    ]))
    }

    @Test func rawJSONToDTOWithoutBytes() throws {
        let raw: JSON = ["id": "p1", "ref": "r"]
        let entry = try PhotoEntry.from(raw: raw)
        #expect(entry.id == "p1" && entry.ref == "r")
        #expect(try entry.toRaw() == raw)
    }

    @Test func arraysAndOptionalsConform() throws {
        let raw: JSON = [["id": "a", "ref": "1"], ["id": "b", "ref": "2"]]
        let entries = try [PhotoEntry].from(raw: raw)
        #expect(entries.map(\.id) == ["a", "b"])
        let photos = try [Photo].from(dto: entries)
        #expect(photos == [Photo(id: "a", image: "1"), Photo(id: "b", image: "2")])
        #expect(try photos.toDTO().toRaw() == raw)
        #expect(try PhotoEntry?.from(raw: .null) == nil)
        #expect(try PhotoEntry?.from(raw: ["id": "c", "ref": "3"])?.id == "c")
        #expect(try Photo?.from(dto: nil) == nil)
        #expect(try (nil as PhotoEntry?).toRaw() == .null)
        #expect(try PhotoEntry?.decode(rawBody: Data(" null ".utf8), using: JSONDecoder()) == nil)
        #expect(try PhotoEntry?.decode(rawBody: Data(), using: JSONDecoder()) == nil)
    }

    /// What ``Held`` models share: uniquely referenced again once every model is gone.
    final class Token: Sendable {}

    /// A DTO whose mapping fails when `fails` is set.
    struct HeldEntry: Codable, RawMappable {
        typealias Raw = JSON
        var fails: Bool
    }

    /// A model holding the task's ``Token``.
    struct Held: DTODecodable {
        @TaskLocal static var token: Token?
        let token: Token?

        static func from(dto: HeldEntry) throws -> Held {
            if dto.fails { throw MappingError(type: Held.self, description: "asked to fail") }
            return Held(token: token)
        }
    }

    @Test func aFailedArrayMappingThrowsAndDestroysTheModelsMadeBeforeIt() throws {
        var token = Token()
        Held.$token.withValue(token) {
            let entries = [HeldEntry(fails: false), HeldEntry(fails: false), HeldEntry(fails: true)]
            #expect {
                try [Held].from(dto: entries)
            } throws: { error in
                (error as? MappingError)?.reason == "asked to fail"
            }
            let models = try? [Held].from(dto: Array(entries.prefix(2)))
            #expect(models?.count == 2 && models?.allSatisfy { $0.token === token } == true)
        }
        #expect(isKnownUniquelyReferenced(&token))
    }

    @Test func appModelRoundTripsThroughBothLayers() throws {
        let user = User(name: "Bo", age: 5, type: .member, photos: [Photo(id: "x", image: "y")])
        let raw = try user.toDTO().toRaw()
        #expect(raw == ["name": "Bo", "age": 5, "type": 1, "photos": [["id": "x", "ref": "y"]]])
        #expect(try User.from(dto: UserEntry.from(raw: raw)) == user)
    }

    @Test func decodingErrorNamesTypeAndCodingPath() {
        let body = Data(#"{"name":"Ann","age":31,"type":0,"photos":[{"id":"p1","ref":"r"},{"ref":"r"}]}"#.utf8)
        #expect {
            try UserEntry.decode(rawBody: body, using: JSONDecoder())
        } throws: { error in
            let mapping = try #require(error as? MappingError)
            return mapping.typeName.hasSuffix("UserEntry") && mapping.codingPath == "photos[1].id"
                && mapping.reason == "missing key \"id\""
        }
    }

    @Test func arrayMappingErrorsCarryTheIndex() {
        #expect {
            try [HandMappedEntry].from(raw: [["n": 1], ["n": "x"]])
        } throws: { error in
            let mapping = try #require(error as? MappingError)
            return mapping.codingPath == "[1]" && mapping.description.hasSuffix("at \"[1]\": n must be a number")
        }
        #expect(throws: MappingError.self) { try [HandMappedEntry].from(raw: ["n": 1]) }
    }

    @Test func handMappedRawTypesUseFromRaw() throws {
        let value = try HandMappedEntry.decode(rawBody: Data(#"{"n": 41}"#.utf8), using: JSONDecoder())
        #expect(value.n == 41)
        let list = try [HandMappedEntry].decode(rawBody: Data(#"[{"n": 1}, {"n": 2}]"#.utf8), using: JSONDecoder())
        #expect(list.map(\.n) == [1, 2])
    }

    @Test func plainStringAndDataRawTypes() throws {
        #expect(try TextEntry.decode(rawBody: Data("héllo".utf8), using: JSONDecoder()).text == "héllo")
        #expect(throws: MappingError.self) {
            try TextEntry.decode(rawBody: Data([0xFF, 0xFE]), using: JSONDecoder())
        }
    }
}

/// A raw model that maps JSON by hand and is not `Decodable`.
struct HandMappedEntry: RawDecodable {
    typealias Raw = JSON
    let n: Int
    static func from(raw: JSON) throws -> HandMappedEntry {
        guard let n = raw["n"]?.intValue else {
            throw MappingError(type: Self.self, description: "n must be a number")
        }
        return HandMappedEntry(n: n)
    }
}

/// A raw model whose raw type is plain text.
struct TextEntry: RawDecodable {
    let text: String
    static func from(raw: String) throws -> TextEntry { TextEntry(text: raw) }
}
