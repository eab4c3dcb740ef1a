import Foundation
import PropertyBased
import Strata
import StrataTestSupport
import StrataTesting
import Testing

/// Header fields named by random strings, given wherever a user gives headers
/// (``RequestDescription``, ``HeadersMiddleware``, `Endpoint.header(_:_:)`):
/// never a crash; a name that is not a token gives ``HeaderFieldError`` naming the first
/// such name, and valid ones are sent in order with their values.
@Suite(.runsAlone) struct StringHeaderNamePropertyTests {
    /// One to four fields with names that are tokens two times in three, and random values.
    static let fieldLists = Generator<[HeaderList.Field], Shrink.None<[HeaderList.Field]>> { rng in
        (0..<Int.random(in: 1...4, using: &rng)).map { _ in
            let value =
                Int.random(in: 0..<2, using: &rng) == 0
                ? PropertyGen.string(length: 0...10, using: &rng)
                : PropertyGen.unicodeString().run(using: &rng)
            return HeaderList.Field(name: HeaderPropertyTests.names.run(using: &rng), value: value)
        }
    }

    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { HeaderPropertyTests.tokenCharacters.contains($0) }
    }

    /// The error the fields must give, if any: the first name that is not a token.
    static func expectedError(_ fields: [HeaderList.Field]) -> HeaderFieldError? {
        fields.first { !isToken($0.name) }.map { HeaderFieldError(name: $0.name) }
    }

    /// Checks what was sent against what was given, all names being valid: each name
    /// carries its values, in order, kept or cleaned of line-breaking bytes.
    /// With `collapsingRepeats`, a name given twice keeps only its last value (`.header(_:_:)`
    /// replaces).
    static func checkSent(_ sent: HTTPFields, given fields: [HeaderList.Field], collapsingRepeats: Bool = false) {
        for name in Set(fields.map { $0.name.lowercased() }) {
            guard let fieldName = HTTPField.Name(name) else {
                Issue.record("\(name) was accepted but is not a token")
                continue
            }
            let all = fields.filter { $0.name.lowercased() == name }.map(\.value)
            let given = collapsingRepeats ? Array(all.suffix(1)) : all
            let values = sent[values: fieldName]
            #expect(values.count == given.count)
            for (value, original) in zip(values, given) {
                #expect(HeaderPropertyTests.isSafe(value, from: original))
            }
        }
    }

    /// The names as sent: in order of first appearance, a name given again (in any case)
    /// joining its first spelling there, as `HTTPFields` keeps one name's values together.
    static func sentNames(_ fields: [HeaderList.Field]) -> [String] {
        var order: [String] = []
        var groups: [String: [String]] = [:]
        for field in fields {
            let key = field.name.lowercased()
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(groups[key]?.first ?? field.name)
        }
        return order.flatMap { groups[$0] ?? [] }
    }

    let url = URL(string: "https://api.example.com/x")!

    @Test func requestDescriptionEncodesOrThrowsHeaderFieldError() async {
        await propertyCheck(count: 600, input: Self.fieldLists) { fields in
            let request = RequestDescription(route: url, headers: HeaderList(fields))
            let expected = Self.expectedError(fields)
            do {
                let head = try request.encoded().head
                #expect(expected == nil)
                #expect(head.headerFields.map(\.name.rawName) == Self.sentNames(fields))
                Self.checkSent(head.headerFields, given: fields)
            } catch let error as HeaderFieldError {
                #expect(error == expected)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    /// Sends `endpoint` through `middleware` to a mock that answers 200: with valid names it
    /// arrives once, carrying the fields; otherwise it fails as `kind` with the expected
    /// ``HeaderFieldError`` and nothing is sent.
    static func checkCall(
        _ fields: [HeaderList.Field], kind: StrataError.Kind,
        middleware: [any Middleware] = [], endpoint: Endpoint<Void>
    ) async {
        let mock = MockTransport()
        mock.stub(.get, "/x", with: .status(.ok))
        let expected = expectedError(fields)
        do {
            try await Networker(transport: mock, middleware: middleware).send(endpoint)
            #expect(expected == nil)
            #expect(mock.requests.count == 1)
            checkSent(mock.requests.first?.headerFields ?? [:], given: fields, collapsingRepeats: middleware.isEmpty)
        } catch {
            #expect(expected != nil)
            #expect(error.kind == kind)
            #expect(error.underlying as? HeaderFieldError == expected)
            #expect(mock.requests.isEmpty)
        }
    }

    @Test func headersMiddlewareSendsOrFailsTyped() async {
        await propertyCheck(count: 300, input: Self.fieldLists) { fields in
            let middleware = HeadersMiddleware(HeaderList(fields), policy: .replace)
            await Self.checkCall(
                fields, kind: .middleware, middleware: [middleware], endpoint: Endpoint(RequestDescription(route: url)))
        }
    }

    @Test func endpointHeaderModifiersSendOrFailTyped() async {
        await propertyCheck(count: 300, input: Self.fieldLists) { fields in
            let endpoint = fields.reduce(Endpoint(RequestDescription(route: url))) { $0.header($1.name, $1.value) }
            await Self.checkCall(fields, kind: .encoding, endpoint: endpoint)
        }
    }
}
