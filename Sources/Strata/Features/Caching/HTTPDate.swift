import Foundation

/// Reads the dates of HTTP fields (`Date`, `Expires`, `Last-Modified`, `Retry-After`):
/// RFC 9110 §5.6.7's IMF-fixdate and the two obsolete forms a recipient must accept.
///
/// ```
/// Sun, 06 Nov 1994 08:49:37 GMT     IMF-fixdate
/// Sunday, 06-Nov-94 08:49:37 GMT    RFC 850 (two-digit years: 70–99 → 19xx, else 20xx)
/// Sun Nov  6 08:49:37 1994          asctime
/// ```
///
/// Words are separated by exactly one space (asctime's day aside, which a space pads);
/// the zone `GMT` is read in any case.
///
/// Plain arithmetic on ASCII, no `DateFormatter`: any text (server data) is either a
/// date or `nil`, never a trap, and nothing is allocated per call but the split. The
/// weekday is not checked against the date (RFC 9110 lets recipients ignore it).
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date `text` names, or `nil` when it is not an HTTP date.
    static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= 64, text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        // One space between words, as the grammar says: a date with two where one belongs is
        // invalid (an `Expires` that is then in the past), not read leniently.
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        switch words.count {
        case 6 where words[0].hasSuffix(",") && isGMT(words[5]):  // IMF-fixdate
            return date(day: words[1], month: words[2], year: words[3], yearDigits: 4, time: words[4])
        case 4 where words[0].hasSuffix(",") && isGMT(words[3]):  // RFC 850
            let parts = words[1].split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3 else { return nil }
            return date(day: parts[0], month: parts[1], year: parts[2], yearDigits: 2, time: words[2])
        case 5:  // asctime
            return date(day: words[2], month: words[1], year: words[4], yearDigits: 4, time: words[3])
        case 6 where words[2].isEmpty && words[3].count == 1:  // asctime, a day padded with a space
            return date(day: words[3], month: words[1], year: words[5], yearDigits: 4, time: words[4])
        default:
            return nil
        }
    }

    private static func date(day: Substring, month: Substring, year: Substring, yearDigits: Int, time: Substring)
        -> Date?
    {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard day.count <= 2, year.count == yearDigits, clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let day = number(day), let year = number(year),
            let month = months.firstIndex(of: month.lowercased()).map({ $0 + 1 }),
            let hour = number(clock[0]), let minute = number(clock[1]), let second = number(clock[2]),
            hour < 24, minute < 60, second <= 60, day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        let fullYear = yearDigits == 2 ? (year >= 70 ? 1900 + year : 2000 + year) : year
        let days = daysSinceEpoch(year: fullYear, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// `GMT`, in any case: browsers accept `gmt`, and so does Strata (RFC 9110 lets a
    /// recipient be lenient here).
    private static func isGMT(_ zone: Substring) -> Bool {
        zone.utf8.count == 3 && zone.lowercased() == "gmt"
    }

    /// Digits only, at most four.
    private static func number(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.count <= 4, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int(digits)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given civil date (Howard Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
