import Foundation
import HTTPTypes
import PropertyBased
import Testing

@testable import Strata
@testable import StrataCore

/// A shared response's `Vary` comes from a server and a request's fields from callers: any
/// text is read without a crash, and a caller sends its own request exactly when the
/// response varies on a field in which it differs (or on `*`).
@Suite struct CoalescingPropertyTests {
    static let pieces = ["Accept", "X-Tenant", "*", ",", " ", ", ", "\t", "é", "\u{0}", "x y", ":", "accept"]
    static let texts = Generator<String, Shrink.None<String>> { rng in
        if Bool.random(using: &rng) { return PropertyGen.string(length: 0...30, using: &rng) }
        return (0..<Int.random(in: 0...8, using: &rng)).map { _ in
            Bool.random(using: &rng)
                ? pieces.randomElement(using: &rng)! : PropertyGen.string(length: 0...6, using: &rng)
        }.joined()
    }

    static func request(tenant: String?) -> HTTPRequest {
        var request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/me")
        if let tenant { request.headerFields[HTTPField.Name("X-Tenant")!] = tenant }
        return request
    }

    @Test func aCallerSendsItsOwnExactlyWhenTheResponseVariesOnAFieldItDiffersIn() async {
        await propertyCheck(count: 3000, input: Self.texts, Self.texts) { vary, tenant in
            var head = HTTPResponse(status: .ok)
            head.headerFields[.vary] = vary
            let sent = Self.request(tenant: "north")
            let shared = Flights.Shared(request: sent, head: head, body: Data())
            let names = head.headerFields[values: .vary].flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let varyAll = names.contains("*")
            let variesOnTenant = names.contains { $0.lowercased() == "x-tenant" }
            #expect(CoalescingMiddleware.varies(shared, from: sent) == varyAll, "\(vary)")
            let other = Self.request(tenant: tenant)
            let tenantField = HTTPField.Name("X-Tenant")!
            let differs = other.headerFields[values: tenantField] != sent.headerFields[values: tenantField]
            #expect(
                CoalescingMiddleware.varies(shared, from: other) == (varyAll || (variesOnTenant && differs)),
                "\(vary) / \(tenant)")
        }
    }

    @Test func identicalRequestsShareAnIdentityAndAnotherCredentialNever() async {
        await propertyCheck(count: 3000, input: Self.texts, Self.texts) { authority, token in
            var request = HTTPRequest(method: .get, scheme: "https", authority: authority, path: "/" + token)
            request.headerFields[.authorization] = "Bearer " + token
            let fields = CoalescingMiddleware.defaultIdentityFields
            guard let identity = RequestIdentity(request, fields: fields) else {
                #expect(request.authority?.isEmpty ?? true, "\(authority)")
                return
            }
            #expect(RequestIdentity(request, fields: fields) == identity)
            var other = request
            other.headerFields[.authorization] = "Bearer " + token + "-other"
            #expect(RequestIdentity(other, fields: fields) != identity, "\(authority) / \(token)")
        }
    }
}

/// The rate fields come from servers: any text is read or ignored, never a crash, and what
/// is read is a count and a wait that make sense.
@Suite struct RateLimitPropertyTests {
    static let pieces = [
        "limit=", "remaining=", "reset=", "r=", "t=", "q=", "w=", "\"default\";", ";", ",", "=", "0", "3", "-1",
        "1e400", "inf", "nan", "99999999999999999999", "1.5", "\"", " ", "\u{0}",
    ]
    static let texts = Generator<String, Shrink.None<String>> { rng in
        if Bool.random(using: &rng) { return PropertyGen.string(length: 0...30, using: &rng) }
        return (0..<Int.random(in: 0...10, using: &rng)).map { _ in
            Bool.random(using: &rng)
                ? pieces.randomElement(using: &rng)! : PropertyGen.string(length: 0...4, using: &rng)
        }.joined()
    }

    @Test func anyRateFieldIsReadOrIgnored() async {
        await propertyCheck(count: 3000, input: Self.texts, Self.texts) { rateLimit, other in
            var response = HTTPResponse(status: .tooManyRequests)
            response.headerFields[ServerRateLimit.rateLimitField] = rateLimit
            response.headerFields[ServerRateLimit.policyField] = other
            response.headerFields[ServerRateLimit.remainingField] = other
            response.headerFields[.retryAfter] = other
            guard let server = ServerRateLimit(response, now: Date()) else { return }
            #expect(server.remaining.map { $0 >= 0 } ?? true, "\(rateLimit) / \(other)")
            #expect(server.reset.map { $0 >= .zero } ?? true, "\(rateLimit) / \(other)")
            #expect(server.pause.map { $0 >= .zero } ?? true, "\(rateLimit) / \(other)")
        }
    }
}
