import Foundation
import HTTPTypes
import PropertyBased
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// ``URLEncodedFormEncoder`` and the parameter encodings of ``RequestDescription``, fed
/// random keys, values and nested ``JSON``.
@Suite(.runsAlone) struct FormEncodingPropertyTests {
    /// What the default encoder may write: its allowed set plus `%`, `&` and `=`.
    static let defaultOutputCharacters = CharacterSet.strataURLQueryAllowed.union(CharacterSet(charactersIn: "%&="))

    /// Flat objects of random string keys and values.
    static let flatObjects = Generator<[String: String], Shrink.None<[String: String]>> { rng in
        var members: [String: String] = [:]
        for _ in 0..<Int.random(in: 0...5, using: &rng) {
            members[PropertyGen.string(length: 0...8, using: &rng)] = PropertyGen.string(length: 0...12, using: &rng)
        }
        return members
    }

    @Test func flatPairsRoundTripThroughPercentDecoding() async throws {
        let encoder = URLEncodedFormEncoder()
        await propertyCheck(count: 800, input: Self.flatObjects) { members in
            let output = try encoder.encode(JSON.object(members.mapValues { .string($0) }))
            #expect(output.unicodeScalars.allSatisfy { $0.isASCII && Self.defaultOutputCharacters.contains($0) })
            #expect(PercentText.hasOnlyValidEscapes(output))
            // Decoded byte by byte: `removingPercentEncoding` drops a leading U+FEFF.
            let pairs =
                output.isEmpty
                ? []
                : output.split(separator: "&", omittingEmptySubsequences: false).map { pair -> ([UInt8], [UInt8]) in
                    let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
                    #expect(parts.count == 2)
                    return (
                        URLPercentEscaping.decodedBytes(parts[0]), URLPercentEscaping.decodedBytes(parts.last ?? "")
                    )
                }
            // Alphabetized by key, every pair decoding to the original key and value.
            let expected = members.sorted { $0.key < $1.key }
            #expect(pairs.map(\.0) == expected.map { Array($0.key.utf8) })
            #expect(pairs.map(\.1) == expected.map { Array($0.value.utf8) })
        }
    }

    @Test func plusReplacedSpacesAreTheOnlyPlusSigns() async throws {
        let encoder = URLEncodedFormEncoder(spaceEncoding: .plusReplaced)
        await propertyCheck(count: 500, input: Self.flatObjects) { members in
            let output = try encoder.encode(JSON.object(members.mapValues { .string($0) }))
            #expect(!output.contains(" "))
            #expect(PercentText.hasOnlyValidEscapes(output))
            let plusCount = output.filter { $0 == "+" }.count
            let spaceCount = members.reduce(0) {
                $0 + $1.key.utf8.filter { $0 == 0x20 }.count + $1.value.utf8.filter { $0 == 0x20 }.count
            }
            #expect(plusCount == spaceCount)
        }
    }

    @Test func nestedValuesEncodeOrThrowParameterEncodingError() async throws {
        let encoders = [
            URLEncodedFormEncoder(),
            URLEncodedFormEncoder(arrayEncoding: .indexInBrackets, nilEncoding: .null, objectEncoding: .dots),
            URLEncodedFormEncoder(alphabetizeKeyValuePairs: false, arrayEncoding: .noBrackets, boolEncoding: .literal),
        ]
        await propertyCheck(count: 600, input: PropertyGen.jsonValues(depth: 4), Gen.int(in: 0...encoders.count - 1)) {
            json, pick in
            do {
                let output = try encoders[pick].encode(json)
                #expect(output.unicodeScalars.allSatisfy { $0.isASCII && Self.defaultOutputCharacters.contains($0) })
                #expect(PercentText.hasOnlyValidEscapes(output))
                guard case .object = json else {
                    Issue.record("a non-object encoded as \(output)")
                    return
                }
            } catch {
                #expect(error is ParameterEncodingError)
            }
        }
    }

    @Test func anyAllowedSetGivesAnASCIIOutputAndAValidQuery() async throws {
        let allowedSets = Generator<CharacterSet, Shrink.None<CharacterSet>> { rng in
            var set = CharacterSet()
            for _ in 0..<Int.random(in: 0...40, using: &rng) {
                set.insert(PropertyGen.token(using: &rng)[0])
            }
            return set
        }
        let url = try #require(URL(string: "https://x.io/s"))
        await propertyCheck(count: 500, input: allowedSets, Self.flatObjects) { allowed, members in
            let encoder = URLEncodedFormEncoder(allowedCharacters: allowed)
            let output = try encoder.encode(JSON.object(members.mapValues { .string($0) }))
            #expect(output.unicodeScalars.allSatisfy { $0.isASCII })
            let request = RequestDescription(
                route: url, parameters: JSON.object(members.mapValues { .string($0) }),
                encoding: .urlQuery(encoder))
            let encoded = try request.encoded()
            let result = try #require(encoded.head.url)
            let query = URLComponents(url: result, resolvingAgainstBaseURL: false)?.percentEncodedQuery
            #expect(query.map(PercentText.hasOnlyValidEscapes) ?? true)
            #expect(
                query.map { URLPercentEscaping.decodedBytes($0) == URLPercentEscaping.decodedBytes(output) }
                    ?? output.isEmpty)
        }
    }

    @Test func queryParametersMergeAfterTheRouteQuery() async throws {
        let route = try URL(string: "https://x.io") + "/search?lang=en"
        await propertyCheck(count: 500, input: Self.flatObjects) { members in
            let parameters = JSON.object(members.mapValues { .string($0) })
            let encoded = try RequestDescription(route: route, parameters: parameters, encoding: .urlQuery).encoded()
            let form = try URLEncodedFormEncoder().encode(parameters)
            #expect(encoded.head.path == "/search?lang=en" + (form.isEmpty ? "" : "&" + form))
            #expect(encoded.body == nil)
        }
    }

    @Test func formBodyIsTheEncoderOutput() async throws {
        await propertyCheck(count: 400, input: PropertyGen.jsonObjects(depth: 3)) { parameters in
            let request = RequestDescription(
                route: RegistrationRoute.auth, method: .post, parameters: parameters, encoding: .formURL)
            do {
                let encoded = try request.encoded()
                let body = try await encoded.body?.collect(upTo: 1 << 20) ?? Data()
                #expect(String(decoding: body, as: UTF8.self) == (try URLEncodedFormEncoder().encode(parameters)))
                #expect(encoded.head.headerFields[.contentType] == "application/x-www-form-urlencoded; charset=utf-8")
            } catch {
                #expect(error is ParameterEncodingError)
            }
        }
    }

    @Test func jsonBodyDecodesBackToTheParameters() async throws {
        await propertyCheck(count: 500, input: PropertyGen.jsonValues(depth: 4)) { parameters in
            let request = RequestDescription(route: RegistrationRoute.register, method: .post, parameters: parameters)
            let encoded = try request.encoded()
            let body = try #require(try await encoded.body?.collect(upTo: 1 << 20))
            #expect(try JSONDecoder().decode(JSON.self, from: body) == parameters)
            #expect(encoded.head.headerFields[.contentType] == "application/json")
        }
    }

    @Test func jsonParametersOnAGetThrowParameterEncodingError() async throws {
        await propertyCheck(count: 200, input: PropertyGen.jsonValues(depth: 2)) { parameters in
            let request = RequestDescription(
                route: RegistrationRoute.auth, method: .get, parameters: parameters,
                encoding: .json)
            #expect(throws: ParameterEncodingError.self) { try request.encoded() }
        }
    }

    @Test func nonFiniteNumbersThrowParameterEncodingError() async throws {
        struct Reading: Encodable, Sendable {
            let label: String
            let value: Double
        }
        let values = Gen<Double?>.element(of: [Double.nan, .infinity, -.infinity]).map { $0! }
        await propertyCheck(count: 100, input: values, PropertyGen.unicodeString()) { value, label in
            for encoding in [ParametersEncoding.json, .formURL, .urlQuery] {
                let request = RequestDescription(
                    route: RegistrationRoute.auth, method: .post,
                    parameters: Reading(label: label, value: value), encoding: encoding)
                #expect(throws: ParameterEncodingError.self) { try request.encoded() }
            }
        }
    }
}
