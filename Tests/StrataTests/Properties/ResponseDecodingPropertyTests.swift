import Foundation
import HTTPTypes
import PropertyBased
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// Response bodies of random bytes (invalid UTF-8, broken and valid JSON) through
/// ``JSON/init(rawBody:decoder:)``, ``JSONValueDecoder`` and every kind of endpoint.
@Suite(.runsAlone) struct ResponseDecodingPropertyTests {
    /// A model with a field of every type a decoder converts specially.
    struct Everything: Codable, Equatable, RawDecodable {
        typealias Raw = JSON
        var i8: Int8?
        var u: UInt?
        var f: Float?
        var dec: Decimal?
        var date: Date?
        var url: URL?
        var data: Data?
        var map: [String: Int]?
        var list: [Int16]?
        var s: String?
        var b: Bool?
    }

    /// A model that maps its DTO and refuses negative sizes.
    struct Sized: DTODecodable, Equatable {
        typealias DTO = Everything
        let size: Int8
        static func from(dto: Everything) throws -> Sized {
            guard let size = dto.i8, size >= 0 else { throw MappingError(type: Sized.self, description: "no size") }
            return Sized(size: size)
        }
    }

    /// JSON objects with the keys of ``Everything`` and random values of any type.
    static let everythingObjects = Generator<JSON, Shrink.None<JSON>> { rng in
        let keys = ["i8", "u", "f", "dec", "date", "url", "data", "map", "list", "s", "b"]
        var members: [String: JSON] = [:]
        for key in keys where Bool.random(using: &rng) {
            members[key] = PropertyGen.json(depth: 1, using: &rng)
        }
        return .object(members)
    }

    static let request = RequestDescription(route: RegistrationRoute.user("1"))

    static func response(_ body: Data) -> RawResponse {
        RawResponse(head: HTTPResponse(status: .ok), body: body)
    }

    @Test func randomBytesGiveJSONOrMappingError() async throws {
        await propertyCheck(count: 1000, input: PropertyGen.bytes) { body in
            do {
                let json = try JSON(rawBody: body, decoder: JSONDecoder())
                // Whatever was read is JSON that reads back the same.
                #expect(try JSON(rawBody: JSONEncoder().encode(json), decoder: JSONDecoder()) == json)
                #expect(try Endpoint<JSON>(Self.request).parse(Self.response(body), JSONDecoder()) == json)
            } catch {
                #expect(error is MappingError)
                #expect(throws: MappingError.self) {
                    try Endpoint<JSON>(Self.request).parse(Self.response(body), JSONDecoder())
                }
            }
        }
    }

    @Test func everyEndpointKindGivesAValueOrMappingError() async throws {
        let decoding = Endpoint(Self.request, decoding: Everything.self)
        let raw = Endpoint(Self.request, raw: Everything.self)
        let model = Endpoint(Self.request, model: Sized.self)
        let transformed = Endpoint(Self.request) { json in json["s"]?.stringValue ?? "" }
        let seed003 = Endpoint<String>(
            url: URL(filePath: "/"),
            parse: { json in
                .success((json as? [String: Any])?["s"] as? String ?? "")
            })
        let bodies = Generator<Data, Shrink.None<Data>> { rng in
            Bool.random(using: &rng)
                ? PropertyGen.bytes.run(using: &rng)
                : Data(PropertyGen.jsonText(Self.everythingObjects.run(using: &rng)).utf8)
        }
        await propertyCheck(count: 1000, input: bodies) { body in
            let response = Self.response(body)
            let decoded = Self.outcome { try decoding.parse(response, JSONDecoder()) }
            let rawDecoded = Self.outcome { try raw.parse(response, JSONDecoder()) }
            let mapped = Self.outcome { try model.parse(response, JSONDecoder()) }
            let text = Self.outcome { try transformed.parse(response, JSONDecoder()) }
            let seedText = Self.outcome { try seed003.parse(response, JSONDecoder()) }
            #expect(seedText.value == text.value)
            for error in [decoded.error, rawDecoded.error, mapped.error, text.error, seedText.error].compactMap({ $0 })
            {
                #expect(error is MappingError, "\(type(of: error)): \(error)")
            }
            // A Decodable raw model decodes the bytes directly, as `decoding:` does.
            #expect(decoded.value == rawDecoded.value)
            if let value = mapped.value {
                #expect(value.size >= 0)
                #expect(value.size == decoded.value?.i8)
            }
        }
    }

    /// Any JSON value bridges to Foundation objects that `JSONSerialization` writes back
    /// as the same JSON.
    @Test func foundationObjectsAreValidJSONObjects() async throws {
        let trees = Generator<JSON, Shrink.None<JSON>> { rng in PropertyGen.json(depth: 4, using: &rng) }
        await propertyCheck(count: 1000, input: trees) { json in
            let data = try JSONSerialization.data(withJSONObject: json.foundationObject, options: .fragmentsAllowed)
            let back = try JSONDecoder().decode(JSON.self, from: data)
            #expect(back == json || back.normalizingWholeDoubles == json.normalizingWholeDoubles, "\(json) → \(back)")
        }
    }

    @Test func jsonValueDecoderGivesAValueOrDecodingError() async throws {
        let trees = Generator<JSON, Shrink.None<JSON>> { rng in
            Int.random(in: 0..<4, using: &rng) == 0
                ? PropertyGen.json(depth: 3, using: &rng) : Self.everythingObjects.run(using: &rng)
        }
        await propertyCheck(count: 1000, input: trees) { json in
            do {
                let value = try JSONValueDecoder().decode(Everything.self, from: json)
                // `from(raw:)` reads the tree as the decoder does.
                #expect(try Everything.from(raw: json) == value)
            } catch {
                #expect(error is DecodingError, "\(type(of: error)): \(error)")
                #expect(throws: MappingError.self) { try Everything.from(raw: json) }
            }
        }
    }

    @Test func stringEndpointReadsExactlyTheValidUTF8() async throws {
        let endpoint = Endpoint<String>(Self.request)
        await propertyCheck(count: 1000, input: PropertyGen.bytes) { body in
            let valid = String(validUTF8: body)
            do {
                let text = try endpoint.parse(Self.response(body), JSONDecoder())
                #expect(valid != nil)
                #expect(Data(text.utf8) == body || Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)) == body)
            } catch {
                #expect(error is MappingError)
                #expect(valid == nil)
            }
        }
    }

    @Test func dataAndVoidEndpointsTakeAnyBytes() async throws {
        await propertyCheck(count: 500, input: PropertyGen.bytes) { body in
            #expect(try Endpoint<Data>(Self.request).parse(Self.response(body), JSONDecoder()) == body)
            try Endpoint<Void>(Self.request).parse(Self.response(body), JSONDecoder())
        }
    }

    @Test func deeplyNestedBodiesThrowRatherThanOverflowTheStack() async throws {
        let depths = Gen.int(in: 1...1500)
        await propertyCheck(count: 8, input: depths, Gen.bool) { depth, objects in
            let open = objects ? #"{"a":"# : "["
            let close = objects ? "}" : "]"
            let body = Data((String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)).utf8)
            do {
                _ = try JSON(rawBody: body, decoder: JSONDecoder())
            } catch {
                #expect(error is MappingError)
            }
        }
    }

    /// The value `body` returns or the error it throws.
    static func outcome<T>(_ body: () throws -> T) -> (value: T?, error: (any Error)?) {
        do {
            return (try body(), nil)
        } catch {
            return (nil, error)
        }
    }
}

private extension JSON {
    /// The value with whole doubles as integers: `2.0` written as JSON reads back as `2`.
    var normalizingWholeDoubles: JSON {
        switch self {
        case .double(let value) where value.rounded() == value && abs(value) < 1e15: .integer(Int(value))
        case .array(let values): .array(values.map(\.normalizingWholeDoubles))
        case .object(let members): .object(members.mapValues(\.normalizingWholeDoubles))
        default: self
        }
    }
}
