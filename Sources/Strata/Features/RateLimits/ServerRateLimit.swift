import Foundation
import HTTPTypes

/// What a response says about the client's rate: how long to stay away (`Retry-After` on a
/// `429` or `503`), and the quota left until a reset (the `RateLimit` fields of
/// draft-ietf-httpapi-ratelimit-headers).
///
/// Both spellings of the draft are read: up to draft 07, `RateLimit: limit=5, remaining=0,
/// reset=3` (or the separate `RateLimit-Remaining` and `RateLimit-Reset` fields), and the
/// current structured form, `RateLimit: "default";r=0;t=3` with
/// `RateLimit-Policy: "default";q=100;w=60` (whose window `w` is the reset when `t` is
/// missing). With several policies the tightest wins. Values that do not parse are ignored.
struct ServerRateLimit: Equatable, Sendable {
    /// How long the server asks the client to send nothing more.
    var pause: Duration?
    /// The requests left until `reset`, when the server says.
    var remaining: Int?
    /// When the quota is renewed, from now.
    var reset: Duration?

    static let remainingField = HTTPField.Name("RateLimit-Remaining")!
    static let resetField = HTTPField.Name("RateLimit-Reset")!
    static let rateLimitField = HTTPField.Name("RateLimit")!
    static let policyField = HTTPField.Name("RateLimit-Policy")!
    /// The fields without one of which a response says nothing about the rate.
    static let names: [HTTPField.Name] = [rateLimitField, remainingField, .retryAfter]

    init(pause: Duration? = nil, remaining: Int? = nil, reset: Duration? = nil) {
        self.pause = pause
        self.remaining = remaining
        self.reset = reset
    }

    /// What `response` says; `nil` when it says nothing usable. (Every response passes
    /// here: one that names none of the fields costs one pass over its fields.)
    init?(_ response: HTTPResponse, now: @autoclosure () -> Date) {
        let fields = response.headerFields
        guard fields.contains(where: { Self.names.contains($0.name) }) else { return nil }
        if response.status == .tooManyRequests || response.status == .serviceUnavailable {
            pause = RetryPolicy.retryAfter(response, now: now())
        }
        let items = fields[values: Self.rateLimitField].flatMap(Self.items)
        if items.contains(where: { $0["remaining"] != nil }) {
            // Up to draft 07: one dictionary, `limit=5, remaining=0, reset=3`.
            let merged = items.reduce(into: [:]) { $0.merge($1) { first, _ in first } }
            remaining = merged["remaining"].flatMap(Self.number)
            reset = merged["reset"].flatMap(Self.number).map { .seconds($0) }
        } else if !items.isEmpty {
            // The structured form: one item per policy, `"name";r=0;t=3`.
            let window = fields[values: Self.policyField].flatMap(Self.items).compactMap {
                $0["w"].flatMap(Self.number)
            }
            .max()
            let quotas = items.compactMap { item -> (remaining: Int, reset: Int?)? in
                guard let remaining = item["r"].flatMap(Self.number) else { return nil }
                return (remaining, item["t"].flatMap(Self.number) ?? window)
            }
            // The fewest requests left; of equals, the longest until its reset.
            let tightest = quotas.min { a, b in
                a.remaining != b.remaining ? a.remaining < b.remaining : (a.reset ?? 0) > (b.reset ?? 0)
            }
            if let tightest {
                remaining = tightest.remaining
                reset = tightest.reset.map { .seconds($0) }
            }
        } else {
            remaining = fields[Self.remainingField].flatMap(Self.number)
            reset = fields[Self.resetField].flatMap(Self.number).map { .seconds($0) }
        }
        if pause == nil, remaining == nil { return nil }
    }

    /// The parameters of each comma-separated item of a field: `a=1;b=2` → `["a": "1", "b": "2"]`
    /// (keys lowercased; a bare name such as `"default"` is skipped).
    private static func items(_ value: String) -> [[String: String]] {
        value.split(separator: ",").map { item in
            item.split(separator: ";").reduce(into: [:]) { parameters, part in
                let pair = part.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { return }
                let key = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
                parameters[key] = pair[1].trimmingCharacters(in: .whitespaces)
            }
        }
    }

    /// A non-negative decimal integer, at most a day's seconds' worth of digits.
    private static func number(_ text: String) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}
