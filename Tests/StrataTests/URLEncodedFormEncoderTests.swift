import Foundation
import Testing

@testable import Strata
@testable import StrataCore

/// Encodes `json` with an encoder configured by `configure`.
private func form(_ json: JSON, _ configure: (inout URLEncodedFormEncoder) -> Void = { _ in }) throws -> String {
    var encoder = URLEncodedFormEncoder()
    configure(&encoder)
    return try encoder.encode(json)
}

/// Encodes `value` through the generic `encode(_: some Encodable)` entry point.
private func formGeneric<T: Encodable>(_ value: T, _ encoder: URLEncodedFormEncoder = .init()) throws -> String {
    try encoder.encode(value)
}

/// The reason of the `ParameterEncodingError` thrown by `body`, or `nil`.
private func parameterErrorReason(_ body: () throws -> String) -> String? {
    do {
        _ = try body()
        return nil
    } catch let error as ParameterEncodingError {
        return error.reason
    } catch {
        return nil
    }
}

@Suite struct URLEncodedFormEncoderTests {
    @Test func nonFiniteNumbersAreErrors() {
        #expect(
            parameterErrorReason { try form(["a": ["b": .double(.nan)]]) }
                == "\"a[b]\" is nan, which has no form representation")
        #expect(
            parameterErrorReason { try form(["x": [.double(.infinity)]]) }
                == "\"x[]\" is inf, which has no form representation")
    }

    // MARK: - Required examples

    @Test func nestedObjectUsesEscapedBrackets() throws {
        #expect(try form(["a": ["b": "b"]]) == "a%5Bb%5D=b")
    }

    @Test func spacesInKeysAndValuesArePercentEscaped() throws {
        #expect(try form([" foo ": " bar "]) == "%20foo%20=%20bar%20")
    }

    @Test func arrayUsesEscapedEmptyBrackets() throws {
        #expect(try form(["a": ["x", "y"]]) == "a%5B%5D=x&a%5B%5D=y")
    }

    @Test func reservedAndNonASCIICharactersInValue() throws {
        #expect(try form(["q": "a b&c=d/é?"]) == "q=a%20b%26c%3Dd/%C3%A9?")
    }

    // MARK: - Defaults and API

    @Test func defaultsMatchAlamofire() {
        let encoder = URLEncodedFormEncoder()
        #expect(encoder.alphabetizeKeyValuePairs)
        #expect(encoder.arrayEncoding == .brackets)
        #expect(encoder.boolEncoding == .numeric)
        #expect(encoder.nilEncoding == .dropKey)
        #expect(encoder.objectEncoding == .brackets)
        #expect(encoder.spaceEncoding == .percentEscaped)
        #expect(encoder.allowedCharacters == .strataURLQueryAllowed)
        if case .base64 = encoder.dataEncoding {} else { Issue.record("dataEncoding is not .base64") }
        if case .deferredToDate = encoder.dateEncoding {} else { Issue.record("dateEncoding is not .deferredToDate") }
    }

    @Test func untypedLiteralResolvesToJSONOverload() throws {
        #expect(try URLEncodedFormEncoder().encode(["a": 1, "b": "c"]) == "a=1&b=c")
    }

    @Test func genericEntryPointUsesJSONDirectly() throws {
        let json: JSON = ["a": ["b": [1, 2]], "c": true]
        #expect(try formGeneric(json) == "a%5Bb%5D%5B%5D=1&a%5Bb%5D%5B%5D=2&c=1")
    }

    @Test func genericEntryPointUsesJSONDictionaryDirectly() throws {
        let members: [String: JSON] = ["b": "2", "a": 1, "n": nil]
        #expect(try formGeneric(members) == "a=1&b=2")
        #expect(try formGeneric(members, URLEncodedFormEncoder(nilEncoding: .null)) == "a=1&b=2&n=null")
    }

    @Test func initializerStoresEveryOption() throws {
        let encoder = URLEncodedFormEncoder(
            alphabetizeKeyValuePairs: true,
            arrayEncoding: .indexInBrackets,
            boolEncoding: .literal,
            nilEncoding: .null,
            objectEncoding: .dots,
            spaceEncoding: .plusReplaced,
            allowedCharacters: .alphanumerics
        )
        let json: JSON = ["a b": ["c": [true, nil]]]
        #expect(try encoder.encode(json) == "a+b%2Ec%5B0%5D=true&a+b%2Ec%5B1%5D=null")
    }

    // MARK: - Scalars

    @Test func scalarValues() throws {
        let json: JSON = ["int": 42, "neg": -3, "zero": 0, "half": 1.5, "whole": 1.0, "small": -0.25, "text": "hi"]
        #expect(try form(json) == "half=1.5&int=42&neg=-3&small=-0.25&text=hi&whole=1.0&zero=0")
    }

    @Test func emptyStringValueAndKey() throws {
        #expect(try form(["a": ""]) == "a=")
        #expect(try form(["": "x"]) == "=x")
    }

    // MARK: - ArrayEncoding

    @Test func arrayEncodingBrackets() throws {
        #expect(try form(["key": ["a", "b"]], { $0.arrayEncoding = .brackets }) == "key%5B%5D=a&key%5B%5D=b")
    }

    @Test func arrayEncodingNoBrackets() throws {
        #expect(try form(["key": ["a", "b"]], { $0.arrayEncoding = .noBrackets }) == "key=a&key=b")
    }

    @Test func arrayEncodingIndexInBrackets() throws {
        #expect(try form(["key": ["a", "b"]], { $0.arrayEncoding = .indexInBrackets }) == "key%5B0%5D=a&key%5B1%5D=b")
    }

    @Test func indexedArrayKeepsNumericOrderPastTen() throws {
        let json: JSON = ["a": .array((0...11).map { .integer($0) })]
        let expected = (0...11).map { "a%5B\($0)%5D=\($0)" }.joined(separator: "&")
        #expect(try form(json, { $0.arrayEncoding = .indexInBrackets }) == expected)
    }

    @Test func nestedArraysInArrays() throws {
        let json: JSON = ["a": [[1, 2], [3]]]
        #expect(try form(json) == "a%5B%5D%5B%5D=1&a%5B%5D%5B%5D=2&a%5B%5D%5B%5D=3")
        #expect(
            try form(json, { $0.arrayEncoding = .indexInBrackets })
                == "a%5B0%5D%5B0%5D=1&a%5B0%5D%5B1%5D=2&a%5B1%5D%5B0%5D=3")
        #expect(try form(json, { $0.arrayEncoding = .noBrackets }) == "a=1&a=2&a=3")
    }

    // MARK: - Objects in arrays

    @Test func objectsInArraysWithBrackets() throws {
        let json: JSON = ["a": [["b": 1, "c": 2], ["b": 3]]]
        #expect(try form(json) == "a%5B%5D%5Bb%5D=1&a%5B%5D%5Bc%5D=2&a%5B%5D%5Bb%5D=3")
    }

    @Test func objectsInArraysWithIndex() throws {
        let json: JSON = ["a": [["b": 1, "c": 2], ["b": 3]]]
        #expect(
            try form(json, { $0.arrayEncoding = .indexInBrackets })
                == "a%5B0%5D%5Bb%5D=1&a%5B0%5D%5Bc%5D=2&a%5B1%5D%5Bb%5D=3")
    }

    @Test func objectsInArraysKeepTheirGroupingWhenSorting() throws {
        // Sorting must not move a value from one element to another: servers rebuild
        // `a[][b]` arrays of objects from the order of the pairs.
        let json: JSON = ["a": [["y": 9, "x": 8], ["x": 1]]]
        #expect(try form(json) == "a%5B%5D%5Bx%5D=8&a%5B%5D%5By%5D=9&a%5B%5D%5Bx%5D=1")
    }

    @Test func deeplyNestedMix() throws {
        let json: JSON = ["user": ["name": "Ann", "roles": [["id": 1, "tags": ["x"]]], "meta": ["ok": false]]]
        #expect(
            try form(json)
                == "user%5Bmeta%5D%5Bok%5D=0&user%5Bname%5D=Ann&user%5Broles%5D%5B%5D%5Bid%5D=1&user%5Broles%5D%5B%5D%5Btags%5D%5B%5D=x"
        )
    }

    // MARK: - BoolEncoding

    @Test func boolEncodingNumeric() throws {
        #expect(try form(["f": false, "t": true], { $0.boolEncoding = .numeric }) == "f=0&t=1")
    }

    @Test func boolEncodingLiteral() throws {
        #expect(try form(["f": false, "t": true], { $0.boolEncoding = .literal }) == "f=false&t=true")
    }

    @Test func boolsInArrays() throws {
        #expect(try form(["a": [true, false]]) == "a%5B%5D=1&a%5B%5D=0")
    }

    // MARK: - NilEncoding

    @Test func nilEncodingDropKey() throws {
        #expect(try form(["a": nil, "b": 1], { $0.nilEncoding = .dropKey }) == "b=1")
    }

    @Test func nilEncodingDropValue() throws {
        #expect(try form(["a": nil, "b": 1], { $0.nilEncoding = .dropValue }) == "a=&b=1")
    }

    @Test func nilEncodingNull() throws {
        #expect(try form(["a": nil, "b": 1], { $0.nilEncoding = .null }) == "a=null&b=1")
    }

    @Test func nullArrayElements() throws {
        let json: JSON = ["a": [1, nil, 2]]
        #expect(try form(json, { $0.arrayEncoding = .indexInBrackets }) == "a%5B0%5D=1&a%5B1%5D=2")
        #expect(
            try form(
                json,
                {
                    $0.arrayEncoding = .indexInBrackets
                    $0.nilEncoding = .dropValue
                })
                == "a%5B0%5D=1&a%5B1%5D=&a%5B2%5D=2")
        #expect(try form(json, { $0.nilEncoding = .null }) == "a%5B%5D=1&a%5B%5D=null&a%5B%5D=2")
    }

    @Test func nullInNestedObject() throws {
        let json: JSON = ["a": ["b": nil]]
        #expect(try form(json) == "")
        #expect(try form(json, { $0.nilEncoding = .dropValue }) == "a%5Bb%5D=")
        #expect(try form(json, { $0.nilEncoding = .null }) == "a%5Bb%5D=null")
    }

    // MARK: - ObjectEncoding

    @Test func objectEncodingBrackets() throws {
        #expect(try form(["a": ["b": ["c": 1]]], { $0.objectEncoding = .brackets }) == "a%5Bb%5D%5Bc%5D=1")
    }

    @Test func objectEncodingDots() throws {
        #expect(try form(["a": ["b": ["c": 1]]], { $0.objectEncoding = .dots }) == "a.b.c=1")
    }

    @Test func objectEncodingDotsWithArrays() throws {
        let json: JSON = ["a": ["b": [["c": 1]]]]
        #expect(try form(json, { $0.objectEncoding = .dots }) == "a.b%5B%5D.c=1")
        #expect(
            try form(
                json,
                {
                    $0.objectEncoding = .dots
                    $0.arrayEncoding = .indexInBrackets
                }) == "a.b%5B0%5D.c=1")
        #expect(
            try form(
                json,
                {
                    $0.objectEncoding = .dots
                    $0.arrayEncoding = .noBrackets
                }) == "a.b.c=1")
    }

    // MARK: - SpaceEncoding

    @Test func spaceEncodingPercentEscaped() throws {
        #expect(try form(["a b": "c d+e"], { $0.spaceEncoding = .percentEscaped }) == "a%20b=c%20d%2Be")
    }

    @Test func spaceEncodingPlusReplaced() throws {
        #expect(try form(["a b": "c d+e"], { $0.spaceEncoding = .plusReplaced }) == "a+b=c+d%2Be")
    }

    @Test func plusReplacedInNestedKeys() throws {
        #expect(try form(["a b": ["c d": "e f"]], { $0.spaceEncoding = .plusReplaced }) == "a+b%5Bc+d%5D=e+f")
    }

    // MARK: - Sorting

    @Test func keysAreSortedAtEveryLevel() throws {
        let json: JSON = ["b": 1, "a": 2, "c": ["z": 1, "y": 2], "B": 3]
        #expect(try form(json) == "B=3&a=2&b=1&c%5By%5D=2&c%5Bz%5D=1")
    }

    @Test func shorterKeySortsBeforeItsExtensions() throws {
        let json: JSON = ["a1": 1, "a": 2, "a-b": 3, "ab": 4, "n": ["id2": 5, "id": 6]]
        #expect(try form(json) == "a=2&a-b=3&a1=1&ab=4&n%5Bid%5D=6&n%5Bid2%5D=5")
    }

    @Test func sortingKeepsArrayOrder() throws {
        #expect(try form(["a": ["z", "y", "x"]]) == "a%5B%5D=z&a%5B%5D=y&a%5B%5D=x")
        #expect(try form(["a": ["z", "y", "x"]], { $0.arrayEncoding = .noBrackets }) == "a=z&a=y&a=x")
    }

    @Test func unsortedOutputHasTheSamePairs() throws {
        let json: JSON = ["b": 1, "a": 2, "c": ["z": 1, "y": 2], "d": ["q", "p"]]
        let unsorted = try form(json, { $0.alphabetizeKeyValuePairs = false })
        let pairs = unsorted.split(separator: "&").map(String.init)
        #expect(Set(pairs) == ["a=2", "b=1", "c%5By%5D=2", "c%5Bz%5D=1", "d%5B%5D=q", "d%5B%5D=p"])
        #expect(pairs.count == 6)
        // Array elements keep their order even without sorting.
        let arrayPairs = pairs.filter { $0.hasPrefix("d") }
        #expect(arrayPairs == ["d%5B%5D=q", "d%5B%5D=p"])
    }

    @Test func unicodeKeysAreSortedByTheirCharacters() throws {
        let json: JSON = ["é": 1, "z": 2, "a": 3]
        #expect(try form(json) == "a=3&z=2&%C3%A9=1")
    }

    // MARK: - Unicode

    @Test func emoji() throws {
        #expect(try form(["emoji": "😀"]) == "emoji=%F0%9F%98%80")
        #expect(try form(["👍": "ok"]) == "%F0%9F%91%8D=ok")
    }

    @Test func cyrillic() throws {
        #expect(
            try form(["привет": "Привет"])
                == "%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82=%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82")
    }

    @Test func accents() throws {
        #expect(try form(["a": "café naïve"]) == "a=caf%C3%A9%20na%C3%AFve")
        #expect(try form(["a": "e\u{301}"]) == "a=e%CC%81")
    }

    @Test func nonASCIIIsEscapedEvenWhenAllowed() throws {
        #expect(try form(["a": "é-1"], { $0.allowedCharacters = .alphanumerics }) == "a=%C3%A9%2D1")
    }

    // MARK: - Reserved characters

    @Test(arguments: [
        (":", "%3A"), ("#", "%23"), ("[", "%5B"), ("]", "%5D"), ("@", "%40"),
        ("!", "%21"), ("$", "%24"), ("&", "%26"), ("'", "%27"), ("(", "%28"), (")", "%29"),
        ("*", "%2A"), ("+", "%2B"), (",", "%2C"), (";", "%3B"), ("=", "%3D"),
        ("?", "?"), ("/", "/"),
    ])
    func reservedCharacter(_ character: String, _ escaped: String) throws {
        #expect(try form(["k": .string("x\(character)y")]) == "k=x\(escaped)y")
        #expect(try form(["k\(character)": "v"]) == "k\(escaped)=v")
    }

    @Test func unreservedCharactersStayAsTheyAre() throws {
        let text = "AZaz09-._~"
        #expect(try form(["k": .string(text)]) == "k=\(text)")
    }

    @Test func otherASCIIIsEscaped() throws {
        #expect(try form(["k": "%\"<>\\^`{|}"]) == "k=%25%22%3C%3E%5C%5E%60%7B%7C%7D")
        #expect(try form(["k": "a\nb\tc"]) == "k=a%0Ab%09c")
    }

    @Test func strataURLQueryAllowedIsAlamofiresSet() {
        let set = CharacterSet.strataURLQueryAllowed
        for scalar in ":#[]@!$&'()*+,;= %".unicodeScalars {
            #expect(!set.contains(scalar), "\(scalar) should be escaped")
        }
        for scalar in "?/-._~azAZ09".unicodeScalars {
            #expect(set.contains(scalar), "\(scalar) should be allowed")
        }
    }

    @Test func customAllowedCharacters() throws {
        let allowed = CharacterSet.strataURLQueryAllowed.union(CharacterSet(charactersIn: "[]"))
        #expect(try form(["a": ["b": "c,d"]], { $0.allowedCharacters = allowed }) == "a[b]=c%2Cd")
    }

    // MARK: - Empty parameters

    @Test func emptyObjectGivesEmptyString() throws {
        #expect(try form([:]) == "")
    }

    @Test func emptyContainersWriteNothing() throws {
        #expect(try form(["a": [], "b": [:]]) == "")
        #expect(try form(["a": [], "b": 1, "c": [:]]) == "b=1")
        #expect(try form(["a": [[], [:], ["b": []]]]) == "")
        #expect(try form(["a": [nil]]) == "")
    }

    // MARK: - Errors

    @Test func topLevelArrayThrows() {
        #expect(
            parameterErrorReason { try form([1, 2]) }
                == "URL-encoded form parameters must be a keyed object, found an array")
    }

    @Test func topLevelScalarsThrow() {
        #expect(
            parameterErrorReason { try form("text") }
                == "URL-encoded form parameters must be a keyed object, found a string")
        #expect(
            parameterErrorReason { try form(1) }
                == "URL-encoded form parameters must be a keyed object, found a number")
        #expect(
            parameterErrorReason { try form(1.5) }
                == "URL-encoded form parameters must be a keyed object, found a number")
        #expect(
            parameterErrorReason { try form(true) }
                == "URL-encoded form parameters must be a keyed object, found a boolean")
    }

    @Test func topLevelNullThrows() {
        #expect(
            parameterErrorReason { try form(nil) }
                == "URL-encoded form parameters must be a keyed object, found null")
    }

    @Test func topLevelArrayThrowsThroughGenericEntryPoint() {
        let json: JSON = ["a"]
        #expect(throws: ParameterEncodingError.self) { try formGeneric(json) }
    }
}

/// Tests that go through ``JSONValueEncoder``. They need its real implementation.
@Suite struct URLEncodedFormEncoderCodableTests {
    struct Address: Encodable {
        var city: String
        var zip: String?
    }

    struct Profile: Encodable {
        var name: String
        var age: Int
        var admin: Bool
        var score: Double
        var nickname: String?
        var tags: [String]
        var address: Address
    }

    struct Stamped: Encodable {
        var date: Date
    }

    struct Blob: Encodable {
        var data: Data
    }

    struct Failure: Error, Equatable {}

    private let profile = Profile(
        name: "Ann Lee", age: 31, admin: true, score: 4.5, nickname: nil,
        tags: ["a", "b"], address: Address(city: "Zürich", zip: nil)
    )

    @Test func encodesAStruct() throws {
        #expect(
            try URLEncodedFormEncoder().encode(profile)
                == "address%5Bcity%5D=Z%C3%BCrich&admin=1&age=31&name=Ann%20Lee&score=4.5&tags%5B%5D=a&tags%5B%5D=b")
    }

    @Test func nilOptionalsFollowNilEncoding() throws {
        #expect(
            try URLEncodedFormEncoder(nilEncoding: .dropValue).encode(profile)
                == "address%5Bcity%5D=Z%C3%BCrich&address%5Bzip%5D=&admin=1&age=31&name=Ann%20Lee&nickname=&score=4.5&tags%5B%5D=a&tags%5B%5D=b"
        )
        #expect(
            try URLEncodedFormEncoder(nilEncoding: .null).encode(profile)
                == "address%5Bcity%5D=Z%C3%BCrich&address%5Bzip%5D=null&admin=1&age=31&name=Ann%20Lee&nickname=null&score=4.5&tags%5B%5D=a&tags%5B%5D=b"
        )
    }

    @Test func unsortedStructMembersComeInTheOrderTheyWereEncoded() throws {
        #expect(
            try URLEncodedFormEncoder(alphabetizeKeyValuePairs: false).encode(profile)
                == "name=Ann%20Lee&age=31&admin=1&score=4.5&tags%5B%5D=a&tags%5B%5D=b&address%5Bcity%5D=Z%C3%BCrich")
    }

    /// Writes `first` under `key`, then `second` under the same key, then `last`.
    struct Rewritten: Encodable {
        enum Key: String, CodingKey { case key, last }
        var first: String
        var second: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(first, forKey: .key)
            try container.encode(second, forKey: .key)
            try container.encode("z", forKey: .last)
        }
    }

    @Test func aKeyWrittenTwiceKeepsItsPlaceAndTheLaterValue() throws {
        let value = Rewritten(first: "1", second: "2")
        #expect(try URLEncodedFormEncoder().encode(value) == "key=2&last=z")
        #expect(try URLEncodedFormEncoder(alphabetizeKeyValuePairs: false).encode(value) == "key=2&last=z")
        #expect(try JSONValueEncoder().encode(value) == ["key": "2", "last": "z"])
    }

    @Test func aLargeObjectKeepsEveryMemberOnce() throws {
        // Past the point where an object's members are indexed by key.
        let values = Dictionary(uniqueKeysWithValues: (0..<40).map { (String(format: "k%02d", $0), $0) })
        let expected = (0..<40).map { String(format: "k%02d=%d", $0, $0) }.joined(separator: "&")
        #expect(try URLEncodedFormEncoder().encode(values) == expected)
        #expect(try JSONValueEncoder().encode(values) == .object(values.mapValues { .integer($0) }))
    }

    @Test func integersAreEscapedWhenTheSetLeavesTheirCharactersOut() throws {
        let encoder = URLEncodedFormEncoder(allowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz"))
        #expect(try encoder.encode(["n": -12] as [String: Int]) == "n=%2D%31%32")
        #expect(try URLEncodedFormEncoder().encode(["n": -12, "m": 0] as [String: Int]) == "m=0&n=-12")
    }

    @Test func encodesADictionaryOfStrings() throws {
        #expect(try URLEncodedFormEncoder().encode(["q": "a b", "p": "1"] as [String: String]) == "p=1&q=a%20b")
    }

    @Test func encodesAnArrayOfStructsWithIndex() throws {
        struct Wrapper: Encodable { var items: [Address] }
        let wrapper = Wrapper(items: [Address(city: "A", zip: "1"), Address(city: "B", zip: nil)])
        #expect(
            try URLEncodedFormEncoder(arrayEncoding: .indexInBrackets).encode(wrapper)
                == "items%5B0%5D%5Bcity%5D=A&items%5B0%5D%5Bzip%5D=1&items%5B1%5D%5Bcity%5D=B")
    }

    @Test func dateDeferredToDate() throws {
        let value = Stamped(date: Date(timeIntervalSinceReferenceDate: 123.5))
        #expect(try URLEncodedFormEncoder(dateEncoding: .deferredToDate).encode(value) == "date=123.5")
    }

    @Test func dateSecondsSince1970() throws {
        let value = Stamped(date: Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(try URLEncodedFormEncoder(dateEncoding: .secondsSince1970).encode(value) == "date=1700000000.5")
    }

    @Test func dateMillisecondsSince1970() throws {
        let value = Stamped(date: Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(try URLEncodedFormEncoder(dateEncoding: .millisecondsSince1970).encode(value) == "date=1700000000500.0")
    }

    @Test func dateISO8601() throws {
        let value = Stamped(date: Date(timeIntervalSince1970: 1_715_000_000))
        #expect(try URLEncodedFormEncoder(dateEncoding: .iso8601).encode(value) == "date=2024-05-06T12%3A53%3A20Z")
    }

    @Test func dateCustom() throws {
        let value = Stamped(date: Date(timeIntervalSince1970: 86_400))
        let encoder = URLEncodedFormEncoder(
            dateEncoding: .custom { date in "day \(Int(date.timeIntervalSince1970) / 86_400)" })
        #expect(try encoder.encode(value) == "date=day%201")
    }

    @Test func dataBase64() throws {
        let value = Blob(data: Data([0xFB, 0xFF, 0xBF]))
        #expect(try URLEncodedFormEncoder(dataEncoding: .base64).encode(value) == "data=%2B/%2B/")
        #expect(try URLEncodedFormEncoder().encode(Blob(data: Data([1, 2, 3]))) == "data=AQID")
    }

    @Test func dataDeferredToData() throws {
        let value = Blob(data: Data([1, 2, 3]))
        #expect(
            try URLEncodedFormEncoder(dataEncoding: .deferredToData).encode(value)
                == "data%5B%5D=1&data%5B%5D=2&data%5B%5D=3")
    }

    @Test func dataCustom() throws {
        let value = Blob(data: Data([0xAB, 0x01]))
        let encoder = URLEncodedFormEncoder(
            dataEncoding: .custom { data in
                data.map { byte in String(byte, radix: 16) }.joined(separator: ":")
            })
        #expect(try encoder.encode(value) == "data=ab%3A1")
    }

    @Test func customClosureErrorsAreRethrown() {
        let encoder = URLEncodedFormEncoder(dateEncoding: .custom { _ in throw Failure() })
        #expect(throws: Failure()) { try encoder.encode(Stamped(date: Date())) }
    }

    @Test func topLevelEncodableArrayThrows() {
        #expect(
            parameterErrorReason { try URLEncodedFormEncoder().encode(["a", "b"] as [String]) }
                == "URL-encoded form parameters must be a keyed object, found an array")
    }

    @Test func topLevelEncodableScalarThrows() {
        #expect(
            parameterErrorReason { try URLEncodedFormEncoder().encode(42 as Int) }
                == "URL-encoded form parameters must be a keyed object, found a number")
    }

    @Test func topLevelNilOptionalThrows() {
        let value: String? = nil
        #expect(
            parameterErrorReason { try URLEncodedFormEncoder().encode(value) }
                == "URL-encoded form parameters must be a keyed object, found null")
    }
}
