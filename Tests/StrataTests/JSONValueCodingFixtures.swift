import Foundation

@testable import Strata
@testable import StrataCore

// Models shared by JSONValueCodingTests.

enum MediaKind: String, Codable, Equatable {
    case photo, video
}

enum Priority: Int, Codable, Equatable {
    case low = 1
    case high = 2
}

struct Size: Codable, Equatable {
    var width: Int
    var height: Int
}

struct AlbumPhoto: Codable, Equatable {
    var id: Int
    var title: String
    var kind: MediaKind
    var tags: [String]
    var size: Size?
    var rating: Double?
}

struct Album: Codable, Equatable {
    var name: String
    var priority: Priority
    var photos: [AlbumPhoto]
    var counts: [String: Int]
    var grid: [[Int]]
    var flags: [String: [Bool]]

    static let sample = Album(
        name: "Trip",
        priority: .high,
        photos: [
            AlbumPhoto(
                id: 1, title: "Sea", kind: .photo, tags: ["blue", "wet"], size: Size(width: 640, height: 480),
                rating: 4.5),
            AlbumPhoto(id: 2, title: "Clip", kind: .video, tags: [], size: nil, rating: nil),
        ],
        counts: ["views": 10, "likes": 3],
        grid: [[1, 2], [], [3]],
        flags: ["seen": [true, false]])

    static let sampleJSON: JSON = [
        "name": "Trip",
        "priority": 2,
        "photos": [
            [
                "id": 1, "title": "Sea", "kind": "photo", "tags": ["blue", "wet"],
                "size": ["width": 640, "height": 480], "rating": 4.5,
            ],
            ["id": 2, "title": "Clip", "kind": "video", "tags": []],
        ],
        "counts": ["views": 10, "likes": 3],
        "grid": [[1, 2], [], [3]],
        "flags": ["seen": [true, false]],
    ]
}

/// Every kind of value `JSONEncoder` handles specially, for the parity and round-trip tests.
///
/// Doubles (the date too) are not whole numbers: `JSONEncoder` writes `2.0` as `2`, which
/// reads back as ``JSON/integer(_:)``. The URL is absolute: a relative URL encodes as its
/// absolute string and so reads back as a different (base-less) `URL`, with either coder.
struct Everything: Codable, Equatable {
    var int8: Int8 = -8
    var int16: Int16 = 1600
    var int32: Int32 = -32_000_000
    var int64: Int64 = 9_007_199_254_740_993
    var uint: UInt = 7
    var uint8: UInt8 = 255
    var uint16: UInt16 = 65_535
    var uint32: UInt32 = 4_000_000_000
    var uint64: UInt64 = 18_000_000_000
    var float: Float = 0.1
    var double: Double = -2.75
    var text = "héllo \"wörld\" \n ✓"
    var flag = true
    var missing: String?
    var present: Int? = 5
    var kind = MediaKind.video
    var priority = Priority.low
    var url = URL(string: "https://example.com/base/path?q=1")
    var date = Date(timeIntervalSince1970: 1_714_979_289.25)
    var data = Data([0, 1, 2, 253, 254, 255])
    var decimal = Decimal(string: "12.34") ?? 0
    var byNumber: [Int: String] = [1: "one", 20: "twenty"]
    var set: Set<String> = ["only"]
    var album = Album.sample
}

/// A value whose `encode(to:)` writes nothing.
struct WritesNothing: Codable, Equatable {
    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {}
}

struct Wrapper<Value: Codable & Equatable>: Codable, Equatable {
    var value: Value
}

struct Envelope: Codable, Equatable {
    var id: Int
    var payload: JSON
}

struct Optionals: Codable, Equatable {
    var text: String?
    var number: Int?
    var small: UInt8?
    var ratio: Double?
    var size: Size?
    var list: [Int]?
}

struct Stamped: Codable, Equatable {
    var at: Date
    var blob: Data
}

class Animal: Codable {
    var name: String
    init(name: String) { self.name = name }
}

final class Dog: Animal {
    var barks: Bool
    init(name: String, barks: Bool) {
        self.barks = barks
        super.init(name: name)
    }

    private enum CodingKeys: String, CodingKey { case barks }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        barks = try container.decode(Bool.self, forKey: .barks)
        try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(barks, forKey: .barks)
        try super.encode(to: container.superEncoder())
    }
}

/// Uses every container operation by hand, writing into nested containers after creating them.
struct Handmade: Codable, Equatable {
    var title: String
    var inner: String
    var list: [Int]
    var point: Size
    var parent: String
    var extra: Int
    var last: String

    enum Keys: String, CodingKey { case title, inner, details, list, extra }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var details = container.nestedContainer(keyedBy: Keys.self, forKey: .details)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        try container.encode(title, forKey: .title)
        try details.encode(inner, forKey: .inner)
        for value in self.list { try list.encode(value) }
        var point = list.nestedContainer(keyedBy: Size.CodingKeys.self)
        try point.encode(self.point.width, forKey: .width)
        try point.encode(self.point.height, forKey: .height)
        var tail = list.nestedUnkeyedContainer()
        try tail.encode(last)
        var elementSuper = list.superEncoder().singleValueContainer()
        try elementSuper.encodeNil()
        var parent = container.superEncoder().singleValueContainer()
        try parent.encode(self.parent)
        var extra = container.superEncoder(forKey: .extra).singleValueContainer()
        try extra.encode(self.extra)
    }

    init(title: String, inner: String, list: [Int], point: Size, parent: String, extra: Int, last: String) {
        (self.title, self.inner, self.list, self.point) = (title, inner, list, point)
        (self.parent, self.extra, self.last) = (parent, extra, last)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        title = try container.decode(String.self, forKey: .title)
        inner = try container.nestedContainer(keyedBy: Keys.self, forKey: .details).decode(String.self, forKey: .inner)
        var list = try container.nestedUnkeyedContainer(forKey: .list)
        var values: [Int] = []
        while let count = list.count, list.currentIndex < count - 3 {
            values.append(try list.decode(Int.self))
        }
        self.list = values
        let point = try list.nestedContainer(keyedBy: Size.CodingKeys.self)
        self.point = Size(
            width: try point.decode(Int.self, forKey: .width), height: try point.decode(Int.self, forKey: .height))
        var tail = try list.nestedUnkeyedContainer()
        last = try tail.decode(String.self)
        guard try list.superDecoder().singleValueContainer().decodeNil(), list.isAtEnd else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: list.codingPath, debugDescription: "expected a final null"))
        }
        parent = try container.superDecoder().singleValueContainer().decode(String.self)
        extra = try container.superDecoder(forKey: .extra).singleValueContainer().decode(Int.self)
    }
}

extension Size {
    enum CodingKeys: String, CodingKey { case width, height }
}
