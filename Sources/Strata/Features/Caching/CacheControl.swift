import HTTPTypes

/// The directives of the `Cache-Control` fields of a request or a response
/// (RFC 9111 §5.2), parsed once so that the cache rules read named values.
///
/// Parsing never fails: unknown directives are ignored, and the RFC's rules for bad
/// input apply.
/// - Names are case-insensitive; arguments may be tokens or quoted strings (§5.2).
/// - A directive given twice keeps its first occurrence (§4.2.1).
/// - A delta-seconds value past 2³¹ reads as 2³¹ (§1.2.2).
/// - An invalid `max-age` or `s-maxage` (`max-age=soon`) reads as `0`, so the response
///   is stale (§4.2.1: "consider responses that have invalid freshness information to
///   be stale"); other invalid arguments drop their directive, the cautious reading.
///
/// ```swift
/// let directives = CacheControl(response.headerFields)
/// let maxAge = directives.maxAge   // 60 for "public, max-age=60"
/// ```
public struct CacheControl: Sendable, Hashable {
    /// `max-age`: seconds a response stays fresh (response), or the oldest response the
    /// client accepts (request).
    public var maxAge: Int?
    /// `s-maxage`: the freshness lifetime for shared caches (a response's; this cache
    /// only reads it for the `Authorization` rule).
    public var sharedMaxAge: Int?
    /// `max-stale` (request): how stale a response may be; `Int.max` when it has no value.
    public var maxStale: Int?
    /// `min-fresh` (request): seconds a response must stay fresh for.
    public var minFresh: Int?
    /// `stale-while-revalidate` (RFC 5861 §3): seconds a stale response may be served
    /// while it is revalidated in the background.
    public var staleWhileRevalidate: Int?
    /// `stale-if-error` (RFC 5861 §4): seconds a stale response may be served when
    /// revalidation fails (a transport error or a 5xx).
    public var staleIfError: Int?
    /// `no-cache`: a stored response must be revalidated before every use. A qualified
    /// `no-cache="field"` counts as unqualified (RFC 9111 §5.2.2.4 allows it).
    public var noCache = false
    /// `no-store`: nothing of the exchange may be stored.
    public var noStore = false
    /// `must-revalidate`: a stale response is never served without revalidation.
    public var mustRevalidate = false
    /// `proxy-revalidate`: `must-revalidate` for shared caches.
    public var proxyRevalidate = false
    /// `public`.
    public var isPublic = false
    /// `private`: only a private cache may store it (this one may).
    public var isPrivate = false
    /// `only-if-cached` (request): answer from the cache or with `504`.
    public var onlyIfCached = false
    /// `immutable` (RFC 8246).
    public var isImmutable = false

    /// 2³¹, the largest delta-seconds value a cache must handle (§1.2.2).
    public static let maxDeltaSeconds = 2_147_483_648

    /// No directives.
    public init() {}

    /// The directives of every `Cache-Control` field in `fields`, in order.
    public init(_ fields: HTTPFields) {
        guard fields.contains(.cacheControl) else {  // most requests: nothing to read
            self.init()
            return
        }
        self.init(parsing: fields[values: .cacheControl].joined(separator: ","))
    }

    /// The directives of one `Cache-Control` field value.
    public init(parsing value: String) {
        var seen = Set<String>()
        for (name, argument) in Self.directives(in: value) where seen.insert(name).inserted {
            apply(name, argument)
        }
    }

    private mutating func apply(_ name: String, _ argument: String?) {
        switch name {
        case "max-age": maxAge = Self.seconds(argument) ?? 0
        case "s-maxage": sharedMaxAge = Self.seconds(argument) ?? 0
        case "max-stale": maxStale = argument == nil ? Int.max : Self.seconds(argument)
        case "min-fresh": minFresh = Self.seconds(argument)
        case "stale-while-revalidate": staleWhileRevalidate = Self.seconds(argument)
        case "stale-if-error": staleIfError = Self.seconds(argument)
        case "no-cache": noCache = true
        case "no-store": noStore = true
        case "must-revalidate": mustRevalidate = true
        case "proxy-revalidate": proxyRevalidate = true
        case "public": isPublic = true
        case "private": isPrivate = true
        case "only-if-cached": onlyIfCached = true
        case "immutable": isImmutable = true
        default: break
        }
    }

    /// A delta-seconds argument (§1.2.2): digits only, capped at 2³¹; `nil` when absent
    /// or invalid.
    static func seconds(_ argument: String?) -> Int? {
        guard let argument, !argument.isEmpty, argument.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        let digits = argument.drop { $0 == "0" }
        if digits.count > 10 { return maxDeltaSeconds }
        return min(Int(digits) ?? 0, maxDeltaSeconds)
    }

    /// The `name[=argument]` items of a field value, names lowercased, quoted arguments
    /// unquoted; commas inside quoted strings do not split items.
    static func directives(in value: String) -> [(String, String?)] {
        var items: [(String, String?)] = []
        var current = ""
        var inQuotes = false
        var escaped = false
        func flush() {
            let item = current.trimmingOWS()
            current = ""
            guard !item.isEmpty else { return }
            guard let equals = item.firstIndex(of: "=") else {
                items.append((item.lowercased(), nil))
                return
            }
            let name = item[..<equals].trimmingOWS().lowercased()
            var argument = item[item.index(after: equals)...].trimmingOWS()
            if argument.count >= 2, argument.hasPrefix("\""), argument.hasSuffix("\"") {
                argument = unquote(argument.dropFirst().dropLast())
            }
            if !name.isEmpty { items.append((name, argument)) }
        }
        for character in value {
            if escaped {
                escaped = false
            } else if inQuotes, character == "\\" {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
            } else if character == ",", !inQuotes {
                flush()
                continue
            }
            current.append(character)
        }
        flush()
        return items
    }

    /// A quoted-string's content with its backslash escapes removed (RFC 9110 §5.6.4).
    private static func unquote(_ quoted: Substring) -> String {
        var result = ""
        var escaped = false
        for character in quoted {
            if !escaped, character == "\\" {
                escaped = true
                continue
            }
            escaped = false
            result.append(character)
        }
        return result
    }
}
