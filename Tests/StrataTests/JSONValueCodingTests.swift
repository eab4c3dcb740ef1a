import Foundation
import Testing

@testable import Strata
@testable import StrataCore

/// The kind of a `DecodingError`, its rendered coding path (including the missing key
/// for `keyNotFound`) and, for `keyNotFound`, the path of the container alone.
private struct DecodingFailure: Equatable {
    var kind: String
    var path: String
    var containerPath: String? = nil
}

private func failure(_ error: DecodingError?) -> DecodingFailure? {
    switch error {
    case .typeMismatch(_, let context)?:
        return DecodingFailure(kind: "typeMismatch", path: CodingErrorDescription.path(context.codingPath))
    case .valueNotFound(_, let context)?:
        return DecodingFailure(kind: "valueNotFound", path: CodingErrorDescription.path(context.codingPath))
    case .keyNotFound(let key, let context)?:
        return DecodingFailure(
            kind: "keyNotFound", path: CodingErrorDescription.path(context.codingPath + [key]),
            containerPath: CodingErrorDescription.path(context.codingPath))
    case .dataCorrupted(let context)?:
        return DecodingFailure(kind: "dataCorrupted", path: CodingErrorDescription.path(context.codingPath))
    default:
        return nil
    }
}

private func decodingFailure<T: Decodable>(
    _ type: T.Type, from json: JSON, decoder: JSONValueDecoder = JSONValueDecoder()
) -> DecodingFailure? {
    failure(#expect(throws: DecodingError.self) { try decoder.decode(type, from: json) })
}

/// The rendered coding path and debug description of an `EncodingError`.
private func encodingFailure<T: Encodable>(
    _ value: T, encoder: JSONValueEncoder = JSONValueEncoder()
) -> (path: String, description: String)? {
    let error = #expect(throws: EncodingError.self) { try encoder.encode(value) }
    guard case .invalidValue(_, let context)? = error else { return nil }
    return (CodingErrorDescription.path(context.codingPath), context.debugDescription)
}

private let date = Date(timeIntervalSince1970: 1_714_979_289)  // 2024-05-06T07:08:09Z
private let bytes = Data([1, 2, 255])

@Suite struct JSONValueEncoderTests {
    @Test func encodesNestedModels() throws {
        #expect(try JSONValueEncoder().encode(Album.sample) == Album.sampleJSON)
    }

    @Test func encodesScalarsAtTheTopLevel() throws {
        let encoder = JSONValueEncoder()
        #expect(try encoder.encode(42) == .integer(42))
        #expect(try encoder.encode(UInt8(7)) == .integer(7))
        #expect(try encoder.encode(1.5) == .double(1.5))
        #expect(try encoder.encode(2.0) == .double(2.0))
        #expect(try encoder.encode(Float(0.1)) == .double(0.1))
        #expect(try encoder.encode("x") == .string("x"))
        #expect(try encoder.encode(true) == .bool(true))
        #expect(try encoder.encode(Int?.none) == .null)
        #expect(try encoder.encode([1, 2]) == [1, 2])
        #expect(try encoder.encode(["a": [true]]) == ["a": [true]])
        #expect(try encoder.encode([3: "c"]) == ["3": "c"])
        #expect(try encoder.encode(Decimal(string: "12.34")) == .double(12.34))
        #expect(try encoder.encode(Int64.max) == .integer(Int.max))
    }

    @Test func jsonValuesEncodeAsThemselves() throws {
        let tree: JSON = ["whole": .double(2.0), "list": [1, nil, "x"], "empty": [:]]
        #expect(try JSONValueEncoder().encode(tree) == tree)
        let envelope = Envelope(id: 7, payload: tree)
        #expect(try JSONValueEncoder().encode(envelope) == ["id": 7, "payload": tree])
        #expect(try JSONValueEncoder().encode([JSON.double(1.0)]) == [.double(1.0)])
    }

    @Test func nilOptionalsAreLeftOutByDefault() throws {
        #expect(try JSONValueEncoder().encode(Optionals()) == [:])
        let some = Optionals(text: "t", number: 1, small: 2, ratio: 0.5, size: Size(width: 1, height: 2), list: [])
        #expect(
            try JSONValueEncoder().encode(some)
                == ["text": "t", "number": 1, "small": 2, "ratio": 0.5, "size": ["width": 1, "height": 2], "list": []])
    }

    @Test func nilOptionalsAreNullWhenAskedFor() throws {
        var encoder = JSONValueEncoder()
        encoder.encodesNilOptionals = true
        #expect(
            try encoder.encode(Optionals())
                == ["text": nil, "number": nil, "small": nil, "ratio": nil, "size": nil, "list": nil])
        #expect(
            try encoder.encode(Optionals(number: 3)) == [
                "text": nil, "number": 3, "small": nil, "ratio": nil, "size": nil, "list": nil,
            ])
        #expect(
            try encoder.encode([AlbumPhoto(id: 1, title: "t", kind: .photo, tags: [])])
                == [["id": 1, "title": "t", "kind": "photo", "tags": [], "size": nil, "rating": nil]])
    }

    @Test(arguments: [
        (JSONValueEncoder.DateEncodingStrategy.deferredToDate, JSON.double(736_672_089)),
        (.secondsSince1970, .double(1_714_979_289)),
        (.millisecondsSince1970, .double(1_714_979_289_000)),
        (.iso8601, .string("2024-05-06T07:08:09Z")),
        (.custom({ .integer(Int($0.timeIntervalSince1970)) }), .integer(1_714_979_289)),
    ])
    func dateStrategies(strategy: JSONValueEncoder.DateEncodingStrategy, expected: JSON) throws {
        var encoder = JSONValueEncoder()
        encoder.dateEncodingStrategy = strategy
        #expect(try encoder.encode(date) == expected)
        #expect(try encoder.encode(Wrapper(value: [date])) == ["value": [expected]])
    }

    @Test(arguments: [
        (JSONValueEncoder.DataEncodingStrategy.deferredToData, JSON.array([1, 2, 255])),
        (.base64, .string("AQL/")),
        (.custom({ .string($0.map { String(format: "%02x", $0) }.joined()) }), .string("0102ff")),
    ])
    func dataStrategies(strategy: JSONValueEncoder.DataEncodingStrategy, expected: JSON) throws {
        var encoder = JSONValueEncoder()
        encoder.dataEncodingStrategy = strategy
        #expect(try encoder.encode(bytes) == expected)
        #expect(try encoder.encode(Wrapper(value: bytes)) == ["value": expected])
    }

    @Test func urlsEncodeAsTheirAbsoluteString() throws {
        let url = URL(string: "b?q=1", relativeTo: URL(string: "https://example.com/a/"))
        #expect(try JSONValueEncoder().encode(Wrapper(value: url)) == ["value": "https://example.com/a/b?q=1"])
    }

    @Test func integersThatDoNotFitInIntThrow() {
        let top = encodingFailure(UInt64.max)
        #expect(top?.path == "")
        #expect(top?.description == "Number 18446744073709551615 does not fit in Int.")
        #expect(encodingFailure(Wrapper(value: [UInt(1), UInt.max]))?.path == "value[1]")
        #expect(encodingFailure(["key": UInt64(Int.max) + 1])?.path == "key")
    }

    @Test func nonFiniteNumbersThrowWithTheirPath() {
        let failure = encodingFailure(Wrapper(value: [1.5, .infinity]))
        #expect(failure?.path == "value[1]")
        #expect(failure?.description == "Unable to encode Double.inf directly in JSON.")
        #expect(encodingFailure(Double.nan)?.path == "")
        #expect(encodingFailure(Wrapper(value: Float.infinity))?.path == "value")
        #expect(encodingFailure(Optionals(ratio: -.infinity))?.path == "ratio")
        var encoder = JSONValueEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        #expect(
            encodingFailure(Wrapper(value: Date.distantFuture.addingTimeInterval(.infinity)), encoder: encoder)?.path
                == "value")
    }

    @Test func valuesThatWriteNothing() throws {
        let failure = encodingFailure(WritesNothing())
        #expect(failure?.description == "Top-level WritesNothing did not encode any values.")
        #expect(try JSONValueEncoder().encode(Wrapper(value: WritesNothing())) == ["value": [:]])
        #expect(try JSONValueEncoder().encode([WritesNothing()]) == [[:]])
    }

    @Test func nestedContainersAndSuperEncodersKeepLaterWrites() throws {
        let value = Handmade(
            title: "T", inner: "I", list: [1, 2], point: Size(width: 3, height: 4),
            parent: "P", extra: 5, last: "L")
        #expect(
            try JSONValueEncoder().encode(value) == [
                "title": "T",
                "details": ["inner": "I"],
                "list": [1, 2, ["width": 3, "height": 4], ["L"], nil],
                "super": "P",
                "extra": 5,
            ])
    }

    @Test func subclassesShareTheEncoderThroughSuperEncoder() throws {
        #expect(
            try JSONValueEncoder().encode(Dog(name: "Rex", barks: true)) == ["barks": true, "super": ["name": "Rex"]])
    }

    @Test func twoValuesInOneSingleValueContainerThrow() {
        struct Twice: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(1)
                try container.encode(2)
            }
        }
        let failure = encodingFailure(["a": Twice()])
        #expect(failure?.path == "a")
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func wideIntegersFollowTheSameRule() throws {
        #expect(try JSONValueEncoder().encode(Wrapper(value: Int128(-5))) == ["value": -5])
        #expect(encodingFailure(Wrapper(value: UInt128.max))?.path == "value")
    }
}

@Suite struct JSONValueDecoderTests {
    @Test func decodesNestedModels() throws {
        #expect(try JSONValueDecoder().decode(Album.self, from: Album.sampleJSON) == Album.sample)
    }

    @Test func missingAndNullOptionalsAreNil() throws {
        #expect(try JSONValueDecoder().decode(Optionals.self, from: [:]) == Optionals())
        #expect(try JSONValueDecoder().decode(Optionals.self, from: ["text": nil, "size": nil]) == Optionals())
        #expect(
            decodingFailure(Optionals.self, from: ["number": "1"])
                == DecodingFailure(kind: "typeMismatch", path: "number"))
    }

    @Test func jsonDecodesAsTheSubtree() throws {
        let payload: JSON = ["whole": .double(2.0), "list": [1, nil], "nested": ["deep": [:]]]
        let envelope = try JSONValueDecoder().decode(Envelope.self, from: ["id": 3, "payload": payload])
        #expect(envelope == Envelope(id: 3, payload: payload))
        #expect(try JSONValueDecoder().decode(JSON.self, from: payload) == payload)
        #expect(try JSONValueDecoder().decode([String: JSON].self, from: payload) == payload.objectValue)
    }

    @Test func numbersConvertOnlyWhenExact() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode(Int8.self, from: .integer(-128)) == -128)
        #expect(try decoder.decode(UInt64.self, from: .integer(Int.max)) == UInt64(Int.max))
        #expect(try decoder.decode(Int.self, from: .double(3.0)) == 3)
        #expect(try decoder.decode(Double.self, from: .integer(3)) == 3.0)
        #expect(try decoder.decode(Float.self, from: .double(0.5)) == 0.5)
        #expect(try decoder.decode(Float.self, from: .integer(2)) == 2)
        #expect(try decoder.decode(Decimal.self, from: .double(12.34)) == Decimal(string: "12.34"))
        #expect(try decoder.decode(Decimal.self, from: .integer(7)) == 7)
    }

    @Test func numbersThatDoNotFitAreDataCorrupted() {
        let error = #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(Wrapper<Int8>.self, from: ["value": 300])
        }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(CodingErrorDescription.path(context.codingPath) == "value")
        #expect(context.debugDescription == "Number 300 does not fit in Int8.")
        #expect(decodingFailure([UInt].self, from: [1, -1]) == DecodingFailure(kind: "dataCorrupted", path: "[1]"))
        #expect(decodingFailure(Int.self, from: .double(2.5)) == DecodingFailure(kind: "dataCorrupted", path: ""))
        #expect(decodingFailure(Int.self, from: .double(1e300)) == DecodingFailure(kind: "dataCorrupted", path: ""))
        #expect(decodingFailure(Float.self, from: .double(1e300)) == DecodingFailure(kind: "dataCorrupted", path: ""))
    }

    @Test func kindsDoNotConvert() {
        #expect(decodingFailure(Bool.self, from: .integer(1)) == DecodingFailure(kind: "typeMismatch", path: ""))
        #expect(decodingFailure(Int.self, from: .bool(true)) == DecodingFailure(kind: "typeMismatch", path: ""))
        #expect(decodingFailure(String.self, from: .integer(1)) == DecodingFailure(kind: "typeMismatch", path: ""))
        #expect(decodingFailure(Double.self, from: "1.5") == DecodingFailure(kind: "typeMismatch", path: ""))
        #expect(decodingFailure(MediaKind.self, from: "audio") == DecodingFailure(kind: "dataCorrupted", path: ""))
        #expect(decodingFailure(Priority.self, from: 9) == DecodingFailure(kind: "dataCorrupted", path: ""))
    }

    @Test func errorsCarryTheFullCodingPath() throws {
        var json = Album.sampleJSON
        json["photos"] = [Album.sampleJSON["photos"]?[0] ?? nil, ["title": "No id", "kind": "photo", "tags": []]]
        let missing = try #require(decodingFailure(Album.self, from: json))
        #expect(missing == DecodingFailure(kind: "keyNotFound", path: "photos[1].id", containerPath: "photos[1]"))

        json = Album.sampleJSON
        json["photos"] = [["id": 1, "title": "t", "kind": "photo", "tags": ["a", 2]]]
        #expect(
            decodingFailure(Album.self, from: json) == DecodingFailure(kind: "typeMismatch", path: "photos[0].tags[1]"))

        json["photos"] = [["id": 1, "title": nil, "kind": "photo", "tags": []]]
        #expect(
            decodingFailure(Album.self, from: json) == DecodingFailure(kind: "valueNotFound", path: "photos[0].title"))

        json["photos"] = [["id": 1, "title": "t", "kind": "photo", "tags": [], "size": ["width": 1, "height": "2"]]]
        #expect(
            decodingFailure(Album.self, from: json)
                == DecodingFailure(kind: "typeMismatch", path: "photos[0].size.height"))

        json["photos"] = [["id": 1, "title": "t", "kind": "gif", "tags": []]]
        #expect(
            decodingFailure(Album.self, from: json) == DecodingFailure(kind: "dataCorrupted", path: "photos[0].kind"))

        json = Album.sampleJSON
        json["counts"] = ["views": 1.5]
        #expect(decodingFailure(Album.self, from: json) == DecodingFailure(kind: "dataCorrupted", path: "counts.views"))
    }

    @Test func containersOfTheWrongKind() {
        #expect(decodingFailure(Size.self, from: nil) == DecodingFailure(kind: "valueNotFound", path: ""))
        #expect(decodingFailure(Size.self, from: [1, 2]) == DecodingFailure(kind: "typeMismatch", path: ""))
        #expect(
            decodingFailure(Wrapper<Size>.self, from: ["value": nil])
                == DecodingFailure(kind: "valueNotFound", path: "value"))
        #expect(
            decodingFailure(Wrapper<[Int]>.self, from: ["value": ["a": 1]])
                == DecodingFailure(kind: "typeMismatch", path: "value"))
        #expect(
            decodingFailure(Wrapper<[Int]>.self, from: ["value": nil])
                == DecodingFailure(kind: "valueNotFound", path: "value"))
        #expect(decodingFailure([Int].self, from: [1, nil]) == DecodingFailure(kind: "valueNotFound", path: "[1]"))
    }

    @Test func readingPastTheEndOfAnArray() {
        struct Pair: Decodable {
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                _ = try container.decode(Int.self)
                _ = try container.decode(Int.self)
            }
        }
        #expect(
            decodingFailure([String: [Pair]].self, from: ["value": [[1, 2], [3]]])
                == DecodingFailure(kind: "valueNotFound", path: "value[1][1]"))
    }

    @Test func containerQueries() throws {
        struct Probe: Decodable {
            var keys: [String]
            var hasA: Bool
            var hasZ: Bool
            var aIsNil: Bool
            var bIsNil: Bool
            var counts: [Int?]
            var indices: [Int]
            var endedAtEnd: Bool
            enum Keys: String, CodingKey { case a, b, list, z }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                keys = container.allKeys.map(\.stringValue).sorted()
                hasA = container.contains(.a)
                hasZ = container.contains(.z)
                aIsNil = try container.decodeNil(forKey: .a)
                bIsNil = try container.decodeNil(forKey: .b)
                var list = try container.nestedUnkeyedContainer(forKey: .list)
                counts = [list.count]
                indices = [list.currentIndex]
                #expect(try list.decodeNil() == false)
                indices.append(list.currentIndex)
                _ = try list.decode(Int.self)
                #expect(try list.decodeNil() == true)
                indices.append(list.currentIndex)
                endedAtEnd = list.isAtEnd
                #expect(throws: DecodingError.self) { try container.decodeNil(forKey: .z) }
            }
        }
        let probe = try JSONValueDecoder().decode(
            Probe.self, from: ["a": nil, "b": 1, "list": [5, nil], "extra": true])
        #expect(probe.keys == ["a", "b", "list"])
        #expect(probe.hasA && !probe.hasZ)
        #expect(probe.aIsNil && !probe.bIsNil)
        #expect(probe.counts == [2])
        #expect(probe.indices == [0, 0, 2])
        #expect(probe.endedAtEnd)
    }

    @Test func nestedContainersAndSuperDecoders() throws {
        let json: JSON = [
            "title": "T", "details": ["inner": "I"], "list": [1, 2, ["width": 3, "height": 4], ["L"], nil],
            "super": "P", "extra": 5,
        ]
        let expected = Handmade(
            title: "T", inner: "I", list: [1, 2], point: Size(width: 3, height: 4),
            parent: "P", extra: 5, last: "L")
        #expect(try JSONValueDecoder().decode(Handmade.self, from: json) == expected)
        let dog = try JSONValueDecoder().decode(Dog.self, from: ["barks": false, "super": ["name": "Rex"]])
        #expect(dog.name == "Rex" && !dog.barks)
        #expect(
            decodingFailure(Dog.self, from: ["barks": false]) == DecodingFailure(kind: "valueNotFound", path: "super"))
    }

    @Test(arguments: [
        (JSONValueDecoder.DateDecodingStrategy.deferredToDate, JSON.integer(736_672_089)),
        (.deferredToDate, .double(736_672_089)),
        (.secondsSince1970, .integer(1_714_979_289)),
        (.millisecondsSince1970, .double(1_714_979_289_000)),
        (.iso8601, .string("2024-05-06T07:08:09Z")),
        (.iso8601, .string("2024-05-06T09:08:09+02:00")),
        (.custom({ Date(timeIntervalSince1970: try #require($0["s"]?.doubleValue)) }), .object(["s": 1_714_979_289])),
    ])
    func dateStrategies(strategy: JSONValueDecoder.DateDecodingStrategy, json: JSON) throws {
        var decoder = JSONValueDecoder()
        decoder.dateDecodingStrategy = strategy
        #expect(try decoder.decode(Date.self, from: json) == date)
        #expect(try decoder.decode(Wrapper<[Date]>.self, from: ["value": [json]]) == Wrapper(value: [date]))
    }

    @Test func badDatesAreDataCorrupted() {
        var decoder = JSONValueDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(
            decodingFailure(Wrapper<[Date]>.self, from: ["value": ["yesterday"]], decoder: decoder)
                == DecodingFailure(kind: "dataCorrupted", path: "value[0]"))
        #expect(
            decodingFailure(Wrapper<Date>.self, from: ["value": 5], decoder: decoder)
                == DecodingFailure(kind: "typeMismatch", path: "value"))
        decoder.dateDecodingStrategy = .secondsSince1970
        #expect(
            decodingFailure(Wrapper<Date>.self, from: ["value": "5"], decoder: decoder)
                == DecodingFailure(kind: "typeMismatch", path: "value"))
    }

    @Test func dataAndURLsComeFromStrings() throws {
        #expect(
            try JSONValueDecoder().decode(Stamped.self, from: ["at": 736_672_089, "blob": "AQL/"])
                == Stamped(at: date, blob: bytes))
        #expect(
            decodingFailure(Wrapper<Data>.self, from: ["value": "not base64!"])
                == DecodingFailure(kind: "dataCorrupted", path: "value"))
        #expect(
            decodingFailure(Wrapper<Data>.self, from: ["value": [1, 2]])
                == DecodingFailure(kind: "typeMismatch", path: "value"))
        #expect(
            try JSONValueDecoder().decode(URL.self, from: "https://example.com/a?b=1")
                == URL(string: "https://example.com/a?b=1"))
        #expect(
            decodingFailure(Wrapper<URL>.self, from: ["value": ""])
                == DecodingFailure(kind: "dataCorrupted", path: "value"))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func wideIntegers() throws {
        #expect(try JSONValueDecoder().decode([Int128].self, from: [-5, 7]) == [-5, 7])
        #expect(
            decodingFailure(Wrapper<UInt128>.self, from: ["value": -1])
                == DecodingFailure(kind: "dataCorrupted", path: "value"))
    }
}

@Suite struct JSONValueCodingRoundTripTests {
    @Test func modelsSurviveARoundTrip() throws {
        let value = Everything()
        let json = try JSONValueEncoder().encode(value)
        #expect(try JSONValueDecoder().decode(Everything.self, from: json) == value)
    }

    @Test(arguments: [
        (JSONValueEncoder.DateEncodingStrategy.deferredToDate, JSONValueDecoder.DateDecodingStrategy.deferredToDate),
        (.secondsSince1970, .secondsSince1970),
        (.millisecondsSince1970, .millisecondsSince1970),
        (.iso8601, .iso8601),
    ])
    func datesSurviveARoundTrip(
        encoding: JSONValueEncoder.DateEncodingStrategy, decoding: JSONValueDecoder.DateDecodingStrategy
    ) throws {
        var encoder = JSONValueEncoder()
        encoder.dateEncodingStrategy = encoding
        var decoder = JSONValueDecoder()
        decoder.dateDecodingStrategy = decoding
        let value = Stamped(at: date, blob: bytes)
        #expect(try decoder.decode(Stamped.self, from: encoder.encode(value)) == value)
    }

    @Test func nilOptionalsWrittenAsNullReadBackAsNil() throws {
        var encoder = JSONValueEncoder()
        encoder.encodesNilOptionals = true
        let value = Optionals(text: nil, number: 4, size: nil, list: [1])
        #expect(try JSONValueDecoder().decode(Optionals.self, from: encoder.encode(value)) == value)
    }

    @Test func matchesFoundationsJSONEncoder() throws {
        for (strategy, foundation) in [
            (JSONValueEncoder.DateEncodingStrategy.deferredToDate, JSONEncoder.DateEncodingStrategy.deferredToDate),
            (.iso8601, .iso8601),
        ] {
            let value = Everything()
            var encoder = JSONValueEncoder()
            encoder.dateEncodingStrategy = strategy
            let reference = JSONEncoder()
            reference.dateEncodingStrategy = foundation
            let expected = try JSONDecoder().decode(JSON.self, from: reference.encode(value))
            #expect(try encoder.encode(value) == expected)
        }
    }

    @Test func foundationDecodesWhatWeEncodeAndViceVersa() throws {
        let value = Everything()
        let bytes = try JSONEncoder().encode(try JSONValueEncoder().encode(value))
        #expect(try JSONDecoder().decode(Everything.self, from: bytes) == value)
        let tree = try JSONDecoder().decode(JSON.self, from: JSONEncoder().encode(value))
        #expect(try JSONValueDecoder().decode(Everything.self, from: tree) == value)
    }

    @Test func rawModelsUseTheTreeCoders() throws {
        struct PhotoEntry: Codable, Equatable, RawMappable {
            typealias Raw = JSON
            var id: Int
            var title: String
        }
        let entry = PhotoEntry(id: 1, title: "Sea")
        #expect(try entry.toRaw() == ["id": 1, "title": "Sea"])
        #expect(try PhotoEntry.from(raw: ["id": 1, "title": "Sea"]) == entry)
        let error = #expect(throws: MappingError.self) { try PhotoEntry.from(raw: ["title": "Sea"]) }
        #expect(error?.codingPath == "id")
    }
}
