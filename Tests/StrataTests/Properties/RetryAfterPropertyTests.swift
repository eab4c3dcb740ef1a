import Foundation
import HTTPTypes
import PropertyBased
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// `Retry-After` values are server data: any text gives no wait or a wait of zero or
/// more, never a crash.
@Suite(.runsAlone) struct RetryAfterPropertyTests {
    static let values = Generator<String, Shrink.None<String>> { rng in
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return PropertyGen.string(length: 0...30, using: &rng)
        case 1:
            return String(UInt64.random(in: 0 ... .max, using: &rng))
                + String(repeating: "9", count: Int.random(in: 0...30, using: &rng))
        case 2:
            return "Sun, 06 Nov 1994 08:49:37 GMT".map { Bool.random(using: &rng) ? $0 : "0" }.map(String.init).joined()
        default: return " " + String(Int.random(in: -100...100, using: &rng)) + " "
        }
    }

    @Test func anyValueIsAWaitOfZeroOrMoreOrNone() async {
        await propertyCheck(count: 2000, input: Self.values) { value in
            var fields = HTTPFields()
            fields[.retryAfter] = value
            let wait = RetryPolicy.retryAfter(
                HTTPResponse(status: .serviceUnavailable, headerFields: fields), now: Date())
            #expect(wait.map { $0 >= .zero } ?? true, "\(value.debugDescription) → \(String(describing: wait))")
            let digits = fields[.retryAfter].map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) {
                #expect(wait != nil, "\(value.debugDescription)")
            }
        }
    }

    @Test func exactValues() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        func wait(_ value: String) -> Duration? {
            RetryPolicy.retryAfter(
                HTTPResponse(status: .serviceUnavailable, headerFields: [.retryAfter: value]), now: now)
        }
        #expect(wait("0") == .zero)
        #expect(wait(" 120 ") == .seconds(120))
        #expect(wait("Sun, 06 Nov 1994 08:49:47 GMT") == .seconds(10))
        #expect(wait("Sun, 06 Nov 1994 08:49:27 GMT") == .zero)
        #expect(wait("-5") == nil)
        #expect(wait("soon") == nil)
        #expect(wait("99999999999999999999999") == .seconds(Int64.max))
        // DateFormatter traps on this (Foundation's "Incorrect range"): found by the property test.
        #expect(wait("t\u{301}#") == nil)
    }
}
