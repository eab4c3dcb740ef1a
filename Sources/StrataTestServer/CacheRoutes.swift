import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// Routes that answer with the cache fields a test asks for and count every request,
/// for the HTTP cache tests; add them with ``register(on:)`` in ``TestServer/start(configure:)``.
///
/// `GET /cache/{name}` (and `HEAD`, with the `Content-Length` the body would have) answers `200` with the body `{name} #{n}`, `n` being the number of
/// requests for that name so far, `text/plain`, and the fields the query asks for:
/// - `cc`: `Cache-Control`; `vary`: `Vary`; `age`: `Age`; `lm`: `Last-Modified`;
/// - `etag=1`: `ETag: "{name}-{generation}"` (see ``changeAll()``);
/// - `echo`: the value of this request field is added to the body (`{name} #{n} {value}`).
///
/// A request whose `If-None-Match` is the current `ETag`, or whose `If-Modified-Since` is
/// the `lm` value, gets `304` with the same fields and no body. `POST`, `PUT` and
/// `DELETE /cache/{name}` count too and answer `204` with `Location: {location}` when the
/// query has one.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public final class CacheRoutes: Sendable {
    private struct State {
        var hits: [String: Int] = [:]
        var notModified = 0
        var generation = 1
    }

    private let state = NIOLockedValueBox(State())

    /// Creates the routes with no request counted.
    public init() {}

    /// How many requests `/cache/{name}` received, of any method.
    public func hits(_ name: String) -> Int { state.withLockedValue { $0.hits[name] ?? 0 } }

    /// How many `304`s the routes sent.
    public var notModified: Int { state.withLockedValue { $0.notModified } }

    /// Changes every resource: the `ETag`s get a new generation.
    public func changeAll() { state.withLockedValue { $0.generation += 1 } }

    /// Adds the routes to `router`.
    public func register(on router: Router<BasicRequestContext>) {
        router.get("cache/:name") { request, context in
            self.answer(request, context)
        }
        router.on("cache/:name", method: .head) { request, context in
            var response = self.answer(request, context)
            if response.status == .ok {
                // The length the GET's body would have, as RFC 9110 §9.3.2 lets a HEAD say.
                let length = response.body.contentLength ?? 0
                response.body = .init()
                response.headers[.contentLength] = String(length)
            }
            return response
        }
        for method in [HTTPRequest.Method.post, .put, .delete] {
            router.on("cache/:name", method: method) { request, context in
                let name = context.parameters.get("name") ?? ""
                self.state.withLockedValue { $0.hits[name, default: 0] += 1 }
                var headers = HTTPFields()
                if let location = request.uri.queryParameters.get("location") { headers[.location] = String(location) }
                return Response(status: .noContent, headers: headers)
            }
        }
    }

    /// The answer to a `GET` (or `HEAD`) of `/cache/{name}`, counted.
    private func answer(_ request: Request, _ context: BasicRequestContext) -> Response {
        let name = context.parameters.get("name") ?? ""
        let query = request.uri.queryParameters
        let (count, generation) = state.withLockedValue { state in
            state.hits[name, default: 0] += 1
            return (state.hits[name] ?? 0, state.generation)
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/plain"
        if let value = query.get("cc") { headers[.cacheControl] = String(value) }
        if let value = query.get("vary") { headers[.vary] = String(value) }
        if let value = query.get("age") { headers[.age] = String(value) }
        if let value = query.get("lm") { headers[.lastModified] = String(value) }
        let etag = query.get("etag") == nil ? nil : "\"\(name)-\(generation)\""
        if let etag { headers[.eTag] = etag }
        let etagMatches = etag != nil && request.headers[.ifNoneMatch] == etag
        let dateMatches = headers[.lastModified] != nil && request.headers[.ifModifiedSince] == headers[.lastModified]
        if etagMatches || (request.headers[.ifNoneMatch] == nil && dateMatches) {
            state.withLockedValue { $0.notModified += 1 }
            return Response(status: .notModified, headers: headers)
        }
        var body = "\(name) #\(count)"
        if let echoed = query.get("echo"), let field = HTTPField.Name(String(echoed)) {
            body += " " + (request.headers[field] ?? "-")
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
