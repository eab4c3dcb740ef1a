import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime
import Strata
import StrataTesting
import Testing

/// A server file that imports Hummingbird, AsyncHTTPClient, OpenAPIRuntime and Strata
/// writes a Strata middleware without qualifying any name: `MessageBody` and
/// `MiddlewareContext` clash with nothing in them (Hummingbird has a `RequestContext`,
/// OpenAPIRuntime an `HTTPBody`). This file compiling is most of the test.
struct RequestIDMiddleware: Middleware {
    func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        var request = request
        request.headerFields[HTTPField.Name("X-Request-ID")!] = "\(context.attempt)"
        return try await next(request, body, context)
    }
}

@Suite struct NameClashTests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func middlewareWrittenNextToHummingbirdAndOpenAPIRuntimeRuns() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/ping", with: .json(["ok": true]))
        let networker = Networker(transport: mock, middleware: [RequestIDMiddleware()])
        let reply = try await networker.send(
            Endpoint<JSON>(RequestDescription(route: try URL(string: "http://x.io") + "/ping")))
        #expect(reply == ["ok": true])
        #expect(mock.requests.first?.headerFields[HTTPField.Name("X-Request-ID")!] == "1")
        // The other libraries' types of the old names are still there, and distinct.
        #expect(String(reflecting: OpenAPIRuntime.HTTPBody.self) == "OpenAPIRuntime.HTTPBody")
        #expect(String(reflecting: BasicRequestContext.self) == "Hummingbird.BasicRequestContext")
    }

    /// Hummingbird has a `URLEncodedFormEncoder` too. Where Strata's type is expected the
    /// context picks it; a bare `URLEncodedFormEncoder()` in a file that imports both is
    /// Hummingbird's, so the Migrating article says to write `Strata.URLEncodedFormEncoder` there.
    @Test func formEncoderNextToHummingbird() throws {
        struct Filter: Encodable, Sendable { let tagList: [String] }
        let encoding = ParametersEncoding.formURL(URLEncodedFormEncoder(keyEncoding: .convertToSnakeCase))
        let request = RequestDescription(
            route: "https://x.io/f", method: .post, parameters: Filter(tagList: ["a"]),
            encoding: encoding)
        #expect(try request.encoded().body?.bufferedData == Data("tag_list%5B%5D=a".utf8))
        let bare = URLEncodedFormEncoder()
        #expect(String(reflecting: type(of: bare)) == "Hummingbird.URLEncodedFormEncoder")
        #expect(String(reflecting: Strata.URLEncodedFormEncoder.self) == "StrataCore.URLEncodedFormEncoder")
    }

    /// Hummingbird exports a `CacheControl` and a `RequestBody` too, and Strata keeps its
    /// names (they say what the types are, and most code never spells them: a request's
    /// body is written `.data(…)` or `.multipart(…)` where the type is known). In a file
    /// that imports both, the bare names are ambiguous, so such a file writes
    /// `Strata.CacheControl` and `Strata.RequestBody`, as the Migrating article says.
    @Test func cacheControlAndRequestBodyNextToHummingbird() throws {
        var request = RequestDescription(route: "https://x.io/upload", method: .post)
        request.body = .data(Data("hi".utf8), contentType: "text/plain")  // the type from context: no clash
        #expect(try request.encoded().body?.bufferedData == Data("hi".utf8))
        let body: Strata.RequestBody = .data(Data(), contentType: nil)
        if case .data(let data, let type) = body { #expect(data.isEmpty && type == nil) }
        let directives = Strata.CacheControl(parsing: "public, max-age=60")
        #expect(directives.maxAge == 60)
        #expect(String(reflecting: Strata.CacheControl.self) == "Strata.CacheControl")
        #expect(String(reflecting: Strata.RequestBody.self) == "StrataCore.RequestBody")
        #expect(String(reflecting: Hummingbird.CacheControl.self) == "Hummingbird.CacheControl")
        #expect(String(reflecting: Hummingbird.RequestBody.self) == "HummingbirdCore.RequestBody")
    }
}
