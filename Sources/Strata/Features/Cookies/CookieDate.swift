import Foundation

/// The `Expires` date of a `Set-Cookie` field, read as RFC 6265bis §5.1.1 says: the
/// algorithm every browser uses, which takes the date forms servers really send (RFC 1123,
/// RFC 850 with a two-digit year, asctime, and variants with other separators).
enum CookieDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date `text` stands for, or `nil` when it has no day, month, year or time, or
    /// they do not make a date (a year before 1601, `31 Feb`, `24:00:00`).
    static func parse(_ text: String) -> Date? {
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in tokens(of: Array(text.utf8)) {
            if time == nil, let value = parseTime(token) {
                time = value
            } else if day == nil, let value = leadingDigits(token, count: 1...2) {
                day = value
            } else if month == nil, token.count >= 3,
                let index = months.firstIndex(of: String(decoding: token.prefix(3), as: UTF8.self).lowercased())
            {
                month = index + 1
            } else if year == nil, let value = leadingDigits(token, count: 2...4) {
                year = value
            }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: components),
            calendar.component(.day, from: date) == day, calendar.component(.month, from: date) == month
        else { return nil }  // a date that does not exist (31 February)
        return date
    }

    /// The date-tokens: the runs of non-delimiters (§5.1.1's delimiter set).
    private static func tokens(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(whereSeparator: isDelimiter)
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte)
            || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// The number a token starts with when it has `count` digits followed by a non-digit
    /// or nothing.
    private static func leadingDigits(_ token: ArraySlice<UInt8>, count: ClosedRange<Int>) -> Int? {
        let digits = token.prefix(while: isDigit)
        guard count.contains(digits.count) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `h:m:s` with one or two digits each, followed by a non-digit or nothing.
    private static func parseTime(_ token: ArraySlice<UInt8>) -> (Int, Int, Int)? {
        var values: [Int] = []
        var rest = token[...]
        for index in 0..<3 {
            let digits = rest.prefix(while: isDigit)
            guard (1...2).contains(digits.count) else { return nil }
            values.append(digits.reduce(0) { $0 * 10 + Int($1 - 0x30) })
            rest = rest.dropFirst(digits.count)
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        return (values[0], values[1], values[2])
    }
}
