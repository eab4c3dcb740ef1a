import Foundation
import PropertyBased
import Testing

@testable import Strata
@testable import StrataCore

/// `Set-Cookie` fields are server data: any text is read as a cookie or ignored, never a
/// crash, and what the jar keeps stays within the RFC's bounds.
@Suite(.runsAlone) struct CookiePropertyTests {
    static let fields = Generator<String, Shrink.None<String>> { rng in field(using: &rng) }

    static let pieces = [
        ";", "=", " ", "\t", "Path=", "Domain=", "Expires=", "Max-Age=", "Secure", "HttpOnly", "SameSite=", "__Host-",
        "__Secure-", ".", "/", "\"", "-1", "0", "99999999999999999999", "Sun, 06 Nov 1994 08:49:37 GMT", "%",
        "\u{0}", "é", "😀", "example.com", "localhost",
    ]

    static func field(using rng: inout some RandomNumberGenerator) -> String {
        if Bool.random(using: &rng) { return PropertyGen.string(length: 0...60, using: &rng) }
        let count = Int.random(in: 0...16, using: &rng)
        return (0..<count).map { _ in
            Bool.random(using: &rng)
                ? pieces.randomElement(using: &rng)! : PropertyGen.string(length: 0...8, using: &rng)
        }.joined()
    }

    @Test func anyFieldIsReadOrIgnoredWithinTheRFCsBounds() async {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        await propertyCheck(count: 3000, input: Self.fields) { field in
            var storage = CookieStorage()
            for origin in ["https://www.example.com/a/b", "http://localhost:8080/", "http://127.0.0.1/x"] {
                storage.receive(field, from: URL(string: origin)!, at: now)
            }
            for cookie in storage.cookies {
                #expect(cookie.name.utf8.count + cookie.value.utf8.count <= SetCookie.maxNameValueBytes, "\(field)")
                #expect(cookie.path.hasPrefix("/"), "\(field)")
                #expect(!cookie.domain.isEmpty, "\(field)")
                #expect(cookie.expires.map { $0 <= now.addingTimeInterval(CookieStorage.maxLifetime) } ?? true)
                #expect(!cookie.pair.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 }), "\(field)")
            }
            #expect(storage.cookies.count <= 3)
        }
    }

    @Test func anyTextIsADateOrNil() async {
        await propertyCheck(count: 3000, input: Self.fields) { text in
            if let date = CookieDate.parse(text) {
                #expect(date >= Date(timeIntervalSince1970: -11_644_473_600), "\(text)")  // 1601
            }
        }
    }
}
