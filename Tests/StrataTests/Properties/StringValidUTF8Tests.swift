import Foundation
import PropertyBased
import Strata
import Testing

/// `String(validUTF8:)`, Strata's UTF-8 validation below macOS 15: exact cases of each
/// kind of invalid sequence, and random bytes against the standard library's own check.
@Suite struct StringValidUTF8Tests {
    @Test(
        arguments: [
            ([], ""),
            ([0x61, 0x62], "ab"),
            ([0xC3, 0xA9], "é"),
            ([0xE2, 0x82, 0xAC], "€"),
            ([0xF0, 0x9F, 0x98, 0x80], "😀"),
            ([0xEF, 0xBB, 0xBF, 0x61], "\u{FEFF}a"),  // a byte-order mark is kept, not dropped
            ([0xEF, 0xBF, 0xBD], "\u{FFFD}"),  // a replacement character that was sent is valid
            ([0x00], "\u{0}"),
        ] as [([UInt8], String)])
    func validBytesAreTheirString(bytes: [UInt8], expected: String) {
        #expect(String(validUTF8: bytes) == expected)
        #expect(String(validUTF8: bytes[...]) == expected)
    }

    @Test(
        arguments: [
            [0x80],  // a continuation byte alone
            [0xC3],  // a lead byte cut short
            [0xE2, 0x82],  // a three-byte sequence cut short
            [0xC0, 0xAF],  // an overlong "/"
            [0xE0, 0x80, 0xAF],  // an overlong "/" in three bytes
            [0xED, 0xA0, 0x80],  // a UTF-16 surrogate
            [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
            [0xFF],
            [0x61, 0xFE, 0x62],
            [0xEF, 0xBF, 0xBD, 0xFF],  // a sent U+FFFD, then an invalid byte
        ] as [[UInt8]])
    func invalidBytesAreNil(bytes: [UInt8]) {
        #expect(String(validUTF8: bytes) == nil)
    }

    @Test func randomBytesAgreeWithTheStandardLibrary() async {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        await propertyCheck(count: 2000, input: PropertyGen.bytes) { data in
            #expect(String(validUTF8: data) == String(validating: data, as: UTF8.self))
        }
    }
}
