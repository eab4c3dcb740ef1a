import Foundation
import HTTPTypes

/// Sends each request with the cookies a ``CookieJar`` holds for its URL and stores the
/// `Set-Cookie` fields of each response: a session that lasts across calls, the same on
/// every transport.
///
/// Every hop of a redirect and every retry passes through it, so each request carries the
/// cookies of its own URL: a redirect to another origin carries that origin's cookies, not
/// the first one's (the redirect step withholds the caller's own `Cookie` field there, and
/// this step adds the jar's after it). A request's own `Cookie` field is kept, and the
/// jar's pairs follow it.
///
/// ```swift
/// let jar = MemoryCookieJar()
/// let client = Networker(transport: AsyncHTTPClientTransport(), middleware: [CookieMiddleware(jar: jar)])
/// ```
public struct CookieMiddleware: Middleware {
    /// The jar the cookies are read from and stored in.
    public let jar: any CookieJar

    /// A step over `jar`.
    public init(jar: any CookieJar) {
        self.jar = jar
    }

    /// Adds the jar's cookies for the request's URL, sends it, and stores the response's.
    public func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        guard let url = request.url else { return try await next(request, body, context) }
        var context = context
        if let pairs = CookieStorage.headerValue(for: jar.cookies(for: url)) {
            // Added as the request leaves, after the redirect step has withheld the caller's
            // credentials on a hop to another origin.
            context.adjustBeforeTransport { request in
                request.headerFields[values: .cookie].append(pairs)
            }
        }
        let (response, responseBody) = try await next(request, body, context)
        jar.receive(response.headerFields[values: .setCookie], from: url)
        return (response, responseBody)
    }

    /// `true`: the jar answers at once, and the step waits for nothing but `next`.
    public var boundsItsWaits: Bool { true }
}
