import Foundation
import Testing

@testable import Strata
@testable import StrataCore

@Suite struct JSONTests {
    @Test func literalsBuildTheExpectedCases() {
        let value: JSON = ["name": "Ann", "age": 31, "score": 4.5, "admin": true, "manager": nil, "tags": ["a", "b"]]
        #expect(value["name"] == .string("Ann"))
        #expect(value["age"] == .integer(31))
        #expect(value["score"] == .double(4.5))
        #expect(value["admin"] == .bool(true))
        #expect(value["manager"] == .null)
        #expect(value["tags"]?[1] == .string("b"))
        #expect(value["tags"]?[2] == nil)
        #expect(value["missing"] == nil)
    }

    @Test func accessorsReadOnlyTheirOwnKind() {
        #expect(JSON.string("x").stringValue == "x")
        #expect(JSON.integer(3).stringValue == nil)
        #expect(JSON.double(3.0).intValue == 3)
        #expect(JSON.double(3.5).intValue == nil)
        #expect(JSON.integer(2).doubleValue == 2.0)
        #expect(JSON.bool(false).boolValue == false)
        #expect(JSON.null.isNull)
    }

    @Test func subscriptSetterAddsKeys() {
        var value: JSON = [:]
        value["a"] = 1
        value["b"] = ["c": true]
        #expect(value == ["a": 1, "b": ["c": true]])
    }

    @Test func codableRoundTripKeepsIntegersAndDoublesApart() throws {
        let text = #"{"big":9007199254740993,"half":0.5,"list":[1,"two",null,false],"nested":{"x":{}}}"#
        let value = try JSONDecoder().decode(JSON.self, from: Data(text.utf8))
        #expect(
            value == [
                "big": .integer(9_007_199_254_740_993), "half": 0.5, "list": [1, "two", nil, false],
                "nested": ["x": [:]],
            ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let again = try encoder.encode(value)
        #expect(String(decoding: again, as: UTF8.self) == text)
    }

    @Test func notJSONIsAMappingError() {
        #expect(throws: MappingError.self) {
            try JSON(rawBody: Data("<html>".utf8), decoder: JSONDecoder())
        }
    }
}
