import Foundation
import HTTPTypes

/// A `GET` for one byte range through the cache (RFC 9111 §3.3–3.4, RFC 9110 §14): answered
/// from a stored response that holds the bytes, else sent on, and a `206` that comes back
/// stored and combined with the part already stored.
extension CacheLookup {
    /// Answers `range` from the complete stored response or the stored part when one is
    /// fresh, holds the bytes and passes the request's `If-Range`; otherwise sends the
    /// request and keeps what comes back: a `200` as any response, a `206` as a part.
    /// ``CacheStrategy/cacheOnly`` and ``CacheStrategy/cacheElseRemote`` take a stored
    /// response whatever its age; ``CacheStrategy/remoteElseCache`` always asks the network.
    func ranged(_ range: ByteRange, _ next: MiddlewareNext) async throws -> (HTTPResponse, MessageBody?) {
        let strategy = context.cache ?? cache.configuration.strategy
        if strategy != .remoteElseCache {
            for candidate in [key, key.forPartial] {
                guard let stored = await cache.lookup(candidate, for: request, context), isUsable(stored, strategy),
                    let answer = slice(stored, range)
                else { continue }
                return answer
            }
        }
        if strategy == .cacheOnly { throw StrataError(.cacheMiss, request: request) }
        let requestTime = cache.clock()
        let (response, responseBody) = try await next(request, body, context)
        switch response.status.code {
        case 200: return try await keep(response, responseBody, requestTime: requestTime)
        case 206: return try await keepPart(response, responseBody, requestTime: requestTime)
        default:
            cache.record(CacheOutcome(source: .network, age: .zero, isStale: false), context)
            return (response, responseBody)
        }
    }

    /// Whether `stored` may answer: fresh (or any age for the strategies that take one),
    /// and chosen by the request's `If-Range` when it has one — the same strong `ETag`
    /// (RFC 9110 §13.1.5: a weak one never matches), or the same `Last-Modified` date.
    private func isUsable(_ stored: CachedResponse, _ strategy: CacheStrategy) -> Bool {
        if let ifRange = request.headerFields[.ifRange] {
            let fields = stored.head.headerFields
            let matches =
                ifRange.hasPrefix("\"")
                ? fields[.eTag] == ifRange
                : HTTPDate.parse(ifRange).map { $0 == fields[.lastModified].flatMap(HTTPDate.parse) } ?? false
            guard matches else { return false }
        }
        if strategy != .remoteOnly { return true }
        let use = CacheRules.use(of: stored, for: requestDirectives, at: cache.clock(), heuristic: cache.heuristic)
        return use == .serve(isStale: false)
    }

    /// The answer to `range` from `stored` — a `206` with the bytes and their
    /// `Content-Range`, or a `416` when the range starts past the end — or `nil` when
    /// `stored` is a part that does not hold them all.
    private func slice(_ stored: CachedResponse, _ range: ByteRange) -> (HTTPResponse, MessageBody?)? {
        let held: ContentRange
        if stored.head.status.code == 206 {
            guard let part = ContentRange(stored.head.headerFields[.contentRange]), part.range != nil,
                part.completeLength != nil
            else { return nil }
            held = part
        } else {
            let length = Int64(stored.body.count)
            held = ContentRange(length > 0 ? 0...(length - 1) : nil, of: length)
        }
        guard let length = held.completeLength else { return nil }
        var (head, _) = serve(stored, as: .cache)
        head.headerFields[.contentLength] = nil
        guard let wanted = range.resolved(length: length) else {
            head.status = .rangeNotSatisfiable
            head.headerFields[.contentRange] = ContentRange(nil, of: length).description
            head.headerFields[.contentLength] = "0"
            return (head, nil)
        }
        guard let heldRange = held.range, heldRange.contains(wanted.lowerBound), heldRange.contains(wanted.upperBound)
        else { return nil }
        let start = stored.body.startIndex + Int(wanted.lowerBound - heldRange.lowerBound)
        let bytes = stored.body[start..<(start + Int(wanted.count))]
        head.status = .partialContent
        head.headerFields[.contentRange] = ContentRange(wanted, of: length).description
        head.headerFields[.contentLength] = String(bytes.count)
        return (head, MessageBody(Data(bytes)))
    }

    /// Stores a `206` that may be stored as a part (one range, a known complete length, a
    /// strong `ETag`, a body that fits and matches its range), combined with the stored
    /// part of the same `ETag` when the two overlap or touch; a part that covers every
    /// byte is stored as the complete `200` instead, and the parts are removed. Hands the
    /// response on, its body in memory when it was read.
    private func keepPart(_ response: HTTPResponse, _ responseBody: MessageBody?, requestTime: Date) async throws -> (
        HTTPResponse, MessageBody?
    ) {
        cache.record(CacheOutcome(source: .network, age: .zero, isStale: false), context)
        let limit = cache.configuration.maxBodySize
        guard CacheRules.isStorable(request, response, partial: true),
            let part = ContentRange(response.headerFields[.contentRange]), let range = part.range,
            let length = part.completeLength, let etag = response.headerFields[.eTag], etag.hasPrefix("\""),
            range.count <= limit
        else { return (response, responseBody) }
        guard case .complete(let data) = try await Self.buffer(responseBody, upTo: limit, until: context.deadline)
        else { return (response, responseBody) }
        let answer = (response, responseBody == nil ? nil : MessageBody(data))
        guard Int64(data.count) == Int64(range.count) else { return answer }
        var combined = (range: range, bytes: data)
        if let stored = await cache.lookup(key.forPartial, for: request, context),
            stored.head.headerFields[.eTag] == etag,
            let storedPart = ContentRange(stored.head.headerFields[.contentRange]), storedPart.completeLength == length,
            let storedRange = storedPart.range,
            let merged = Self.merge((storedRange, stored.body), combined)
        {
            combined = merged
        }
        var entry = CachedResponse(
            head: CacheRules.storedHead(response), body: combined.bytes, requestTime: requestTime,
            responseTime: cache.clock(), variedFields: CacheRules.variedFields(of: request, for: response) ?? [:])
        guard Int64(combined.bytes.count) == length, combined.range.lowerBound == 0 else {
            entry.head.headerFields[.contentRange] = ContentRange(combined.range, of: length).description
            entry.head.headerFields[.contentLength] = String(combined.bytes.count)
            guard combined.bytes.count <= limit else { return answer }
            await cache.attempt("write", context) { try await cache.store.store(entry, for: key.forPartial) }
            return answer
        }
        entry.head.status = .ok
        entry.head.headerFields[.contentRange] = nil
        entry.head.headerFields[.contentLength] = String(length)
        await cache.attempt("write", context) { try await cache.store.store(entry, for: key) }
        await cache.attempt("invalidate", context) { try await cache.store.remove(key.forPartial) }
        return answer
    }

    /// The two parts as one, when they overlap or touch; `nil` when there is a gap.
    private static func merge(
        _ first: (range: ClosedRange<Int64>, bytes: Data), _ second: (range: ClosedRange<Int64>, bytes: Data)
    ) -> (range: ClosedRange<Int64>, bytes: Data)? {
        let (low, high) = first.range.lowerBound <= second.range.lowerBound ? (first, second) : (second, first)
        guard high.range.lowerBound <= low.range.upperBound + 1 else { return nil }
        guard high.range.upperBound > low.range.upperBound else { return low }
        var bytes = Data(low.bytes)
        bytes.append(high.bytes.dropFirst(Int(low.range.upperBound + 1 - high.range.lowerBound)))
        return (low.range.lowerBound...high.range.upperBound, bytes)
    }
}
