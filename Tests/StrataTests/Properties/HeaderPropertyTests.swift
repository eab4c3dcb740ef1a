import Foundation
import HTTPTypes
import PropertyBased
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// Header names and values from random text: `HTTPField.Name(_:)`, ``HTTPFields``,
/// ``HeadersMiddleware`` and request encoding.
@Suite(.runsAlone) struct HeaderPropertyTests {
    /// RFC 9110 `tchar`.
    static let tokenCharacters = Set(
        "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)

    /// Whether `value` went through unchanged or was cleaned of the bytes that would
    /// split or end a header line.
    static func isSafe(_ stored: String, from value: String) -> Bool {
        let bytes = Array(stored.utf8)
        guard !bytes.contains(0x00), !bytes.contains(0x0A), !bytes.contains(0x0D) else { return false }
        // A value of visible characters only is kept as it is.
        let visible = value.utf8.allSatisfy { (0x21...0x7E).contains($0) || $0 >= 0x80 }
        return !visible || stored == value
    }

    /// Names that are valid tokens (the ones `HTTPField.Name(_:)` accepts), and some that are not.
    static let names = Generator<String, Shrink.None<String>> { rng in
        let tokens = Array(tokenCharacters)
        if Int.random(in: 0..<3, using: &rng) == 0 { return PropertyGen.string(length: 0...6, using: &rng) }
        return String(
            String.UnicodeScalarView(
                (0..<Int.random(in: 1...12, using: &rng)).map { _ in tokens.randomElement(using: &rng)! }))
    }

    @Test func fieldNamesAreTokensOrNil() async {
        await propertyCheck(count: 1000, input: Self.names) { text in
            let isToken = !text.isEmpty && text.unicodeScalars.allSatisfy { Self.tokenCharacters.contains($0) }
            let name = HTTPField.Name(text)
            #expect((name != nil) == isToken)
            #expect(name.map { $0.rawName == text && $0.canonicalName == text.lowercased() } ?? true)
        }
    }

    @Test func fieldValuesNeverCarryLineBreaks() async {
        await propertyCheck(count: 1000, input: PropertyGen.unicodeString()) { value in
            var fields = HTTPFields()
            fields[.init("X-Test")!] = value
            let stored = fields[.init("X-Test")!] ?? ""
            #expect(
                Self.isSafe(stored, from: value), "\(value.debugDescription) was stored as \(stored.debugDescription)")
        }
    }

    @Test func headersMiddlewareAppliesItsPolicy() async throws {
        let extras = Generator<[(String, String)], Shrink.None<[(String, String)]>> { rng in
            (0..<Int.random(in: 0...5, using: &rng)).map { _ in
                (Self.names.run(using: &rng), PropertyGen.string(length: 0...10, using: &rng))
            }
        }
        await propertyCheck(count: 400, input: extras, Gen.bool) { pairs, replace in
            var extra = HTTPFields()
            for (name, value) in pairs {
                guard let name = HTTPField.Name(name) else { continue }
                extra.append(HTTPField(name: name, value: value))
            }
            var request = HTTPRequest(method: .get, scheme: "https", authority: "x.io", path: "/")
            request.headerFields[.accept] = "text/plain"
            request.headerFields[.init("x-a")!] = "mine"
            let middleware = HeadersMiddleware(extra, policy: replace ? .replace : .keepExisting)
            let (response, _) = try await middleware.intercept(request, body: nil, context: MiddlewareContext()) {
                sent, _, _ in
                (HTTPResponse(status: .ok, headerFields: sent.headerFields), nil)
            }
            let sent = response.headerFields
            for name in Set(extra.map(\.name)).union([.accept, .init("x-a")!]) {
                let ours = request.headerFields[values: name]
                let expected = ours.isEmpty || replace && !extra[values: name].isEmpty ? extra[values: name] : ours
                #expect(sent[values: name] == expected)
            }
            #expect(sent.allSatisfy { field in !field.value.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x00 } })
        }
    }

    @Test func bearerTokensStayOnOneLine() async throws {
        await propertyCheck(count: 400, input: PropertyGen.unicodeString()) { token in
            let middleware = HeadersMiddleware.bearerToken { token }
            let request = HTTPRequest(method: .get, scheme: "https", authority: "x.io", path: "/")
            let (response, _) = try await middleware.intercept(request, body: nil, context: MiddlewareContext()) {
                sent, _, _ in
                (HTTPResponse(status: .ok, headerFields: sent.headerFields), nil)
            }
            let value = try #require(response.headerFields[.authorization])
            #expect(Self.isSafe(value, from: "Bearer " + token))
        }
    }

    @Test func requestHeadersSurviveEncoding() async throws {
        await propertyCheck(count: 400, input: Self.names, PropertyGen.unicodeString()) { name, value in
            guard let name = HTTPField.Name(name) else { return }
            var headers = HTTPFields()
            headers[name] = value
            let request = RequestDescription(
                route: RegistrationRoute.register, method: .post,
                parameters: ["v": .string(value)] as JSON, headers: headers)
            let encoded = try request.encoded()
            let stored = try #require(encoded.head.headerFields[name])
            #expect(Self.isSafe(stored, from: value))
            if name != .contentType {
                #expect(encoded.head.headerFields[.contentType] == "application/json")
            }
        }
    }
}
