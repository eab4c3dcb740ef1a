import Foundation
import HTTPTypes

/// A stored response: its head, its body, when it was fetched and the request fields
/// its `Vary` names. What a ``CacheStore`` keeps under a ``CacheKey``.
///
/// The freshness rules of RFC 9111 §4.2 are methods of this value and take the time as
/// a parameter, so that they are exact in tests; see ``freshnessLifetime(heuristic:)``
/// and ``currentAge(at:)``.
public struct CachedResponse: Sendable, Hashable {
    /// The response head as stored: hop-by-hop fields removed, updated by revalidations.
    public var head: HTTPResponse {
        didSet { fields = CachingFields(head) }
    }
    /// The body bytes.
    public var body: Data
    /// When the request that fetched (or last revalidated) it was sent (`request_time`).
    public var requestTime: Date
    /// When that response arrived (`response_time`).
    public var responseTime: Date
    /// The secondary key (RFC 9111 §4.1): for each field name the response's `Vary`
    /// lists (lowercased), the request's value of that field (fields of one name joined
    /// with `, `; `""` when absent).
    public var variedFields: [String: String]
    /// The head's fields the freshness rules read, parsed once when the head is set: a
    /// hit reads them several times.
    private(set) var fields: CachingFields

    /// Creates a stored response.
    public init(
        head: HTTPResponse, body: Data, requestTime: Date, responseTime: Date, variedFields: [String: String] = [:]
    ) {
        self.head = head
        self.fields = CachingFields(head)
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.variedFields = variedFields
    }

    /// The bytes it takes in a store, roughly: body, fields and the secondary key.
    public var cost: Int {
        body.count + head.headerFields.reduce(64) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
            + variedFields.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
    }

    /// The response's `Cache-Control` directives.
    public var cacheControl: CacheControl { fields.cacheControl }

    /// How long the response is fresh for, in seconds (RFC 9111 §4.2.1): `max-age`,
    /// else `Expires` minus `Date` (an invalid `Expires` is in the past, §5.3), else,
    /// when `heuristic` is set and the status is heuristically cacheable, 10% of the
    /// time since `Last-Modified`, at most a day (§4.2.2); else `0`.
    public func freshnessLifetime(heuristic: Bool) -> Int {
        if let maxAge = fields.cacheControl.maxAge { return maxAge }
        let date = dateValue
        switch fields.expires {
        case .none: break
        case .some(nil): return 0
        case .some(let expiry?): return max(0, Self.seconds(expiry.timeIntervalSince(date)))
        }
        guard heuristic, Self.heuristicallyCacheable.contains(head.status.code),
            let lastModified = head.headerFields[.lastModified].flatMap(HTTPDate.parse)
        else { return 0 }
        return min(max(0, Self.seconds(date.timeIntervalSince(lastModified)) / 10), Self.heuristicLimit)
    }

    /// The age of the response at `now`, in seconds (RFC 9111 §4.2.3): its `Age` and
    /// the time it spent in transit or apparently elsewhere, plus the time since it
    /// arrived.
    public func currentAge(at now: Date) -> Int {
        let ageValue = fields.age ?? 0
        let apparentAge = max(0, Self.seconds(responseTime.timeIntervalSince(dateValue)))
        let responseDelay = max(0, Self.seconds(responseTime.timeIntervalSince(requestTime)))
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        let residentTime = max(0, Self.seconds(now.timeIntervalSince(responseTime)))
        return correctedInitialAge + residentTime
    }

    /// The `Date` field, or the time the response arrived when it has none or an
    /// invalid one.
    var dateValue: Date {
        fields.date ?? responseTime
    }

    /// The status codes a cache may give a heuristic lifetime (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]
    /// The longest heuristic lifetime, a day.
    static let heuristicLimit = 86_400

    /// Whole seconds of `interval`, rounded down and clamped far from overflow.
    static func seconds(_ interval: TimeInterval) -> Int {
        guard interval.isFinite else { return interval > 0 ? CacheControl.maxDeltaSeconds * 1024 : 0 }
        return Int(min(max(interval.rounded(.down), -1e15), 1e15))
    }
}

/// The fields of a stored head that the caching rules read, parsed once.
struct CachingFields: Sendable, Hashable {
    /// The `Cache-Control` directives.
    let cacheControl: CacheControl
    /// The `Date` field, `nil` when absent or invalid.
    let date: Date?
    /// The `Age` field in seconds, `nil` when absent or invalid; see ``age(_:)``.
    let age: Int?
    /// The `Expires` field: `nil` when absent, `.some(nil)` when invalid (in the past,
    /// RFC 9111 §5.3).
    let expires: Date??
    /// The lowercased names its `Vary` fields list.
    let varyNames: [String]

    init(_ head: HTTPResponse) {
        let fields = head.headerFields
        cacheControl = CacheControl(fields)
        date = fields[.date].flatMap(HTTPDate.parse)
        age = fields[.age].flatMap(Self.age)
        expires = fields[.expires].map(HTTPDate.parse)
        varyNames = Self.varyNames(fields)
    }

    /// The seconds an `Age` field value says (RFC 9111 §5.1): a list (or several lines,
    /// which HTTPTypes joins with commas) counts by its first member, and parameters after
    /// the number are ignored (`7200, 0` and `7200;foo=bar` are 7200). A first member that
    /// is not a whole number of seconds (`abc`, `-7200`, `7200.0`) makes the field invalid,
    /// and a cache ignores an invalid `Age` (§4.2.3): `nil`, as if there were none.
    static func age(_ value: String) -> Int? {
        let first = value.prefix { $0 != "," }
        let number = first.prefix { $0 != ";" }.trimmingOWS()
        return CacheControl.seconds(number)
    }

    /// The lowercased names the `Vary` fields in `fields` list.
    static func varyNames(_ fields: HTTPFields) -> [String] {
        fields[values: .vary].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingOWS().lowercased() }.filter { !$0.isEmpty }
    }
}
