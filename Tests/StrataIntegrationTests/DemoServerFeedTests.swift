import Foundation
import HTTPTypes
import Strata
import StrataDemo
import StrataDemoServer
import Testing

/// The demo server's feeds, which the caching steps of the tour load: their cache
/// headers, conditional requests, outages and counts, asked without a cache.
@Suite("The demo server's feeds")
struct DemoServerFeedTests {
    @Test("a feed has max-age=0 and an ETag per revision; If-None-Match gets 304 until a new post")
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func conditionalRequests() async throws {
        try await DemoTransportKind.asyncHTTPClient.withServer { server, transport in
            let networker = Networker(transport: transport)
            let base = server.baseURL
            let api = DemoAPI(baseURL: base)
            let created = try await networker.response(for: api.createFeed())
            #expect(created.head.status == .created)
            #expect(created.head.headerFields[.location] == "/feeds/1")
            #expect(created.value.posts == ["Welcome to feed 1"])

            let first = try await DemoServerTests.exchange(networker, base, "/feeds/1")
            #expect(first.status == 200)
            #expect(first.headers[.cacheControl] == "max-age=0")
            #expect(first.headers[.eTag] == #""feed-1-r1""#)
            #expect(first.body == #"{"id":1,"posts":["Welcome to feed 1"],"revision":1}"#)

            // The weak comparison of RFC 9110 §13.1.2, over a list, and `*`.
            for (ifNoneMatch, status) in [
                (#""feed-1-r1""#, 304), (#"W/"feed-1-r1""#, 304), (#""x", "feed-1-r1""#, 304),
                ("*", 304), (#""feed-1-r2""#, 200), ("feed-1-r1", 200), ("", 200),
            ] {
                let answer = try await DemoServerTests.exchange(
                    networker, base, "/feeds/1", headers: [.ifNoneMatch: ifNoneMatch])
                #expect(answer.status == status, "If-None-Match: \(ifNoneMatch)")
                #expect(answer.headers[.eTag] == #""feed-1-r1""#, "If-None-Match: \(ifNoneMatch)")
            }

            let published = try await networker.send(api.publishPost(feedID: 1))
            #expect(published.revision == 2)
            #expect(published.posts == ["Welcome to feed 1", "Post 2 of feed 1"])
            let changed = try await DemoServerTests.exchange(
                networker, base, "/feeds/1", headers: [.ifNoneMatch: #""feed-1-r1""#])
            #expect(changed.status == 200)
            #expect(changed.headers[.eTag] == #""feed-1-r2""#)

            let stats = try await networker.send(api.feedStats(feedID: 1))
            #expect(stats == FeedStats(requests: 9, notModified: 4, failed: 0))
        }
    }

    @Test("an outage answers 503 until it ends; unknown feeds are 404 and bad ids 400")
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func outagesAndBadInput() async throws {
        try await DemoTransportKind.urlSession.withServer { server, transport in
            let networker = Networker(transport: transport)
            let base = server.baseURL
            let api = DemoAPI(baseURL: base)
            let feed = try await networker.send(api.createFeed())
            #expect(feed.id == 1)
            try await networker.send(api.setOutage(true, feedID: 1))
            let down = try await DemoServerTests.exchange(networker, base, "/feeds/1")
            #expect(down.status == 503)
            #expect(down.body == #"{"error":"feed 1 has an outage"}"#)
            try await networker.send(api.setOutage(false, feedID: 1))
            #expect(try await DemoServerTests.exchange(networker, base, "/feeds/1").status == 200)
            let stats = try await networker.send(api.feedStats(feedID: 1))
            #expect(stats == FeedStats(requests: 2, notModified: 0, failed: 1))

            for (method, path, status) in [
                (HTTPRequest.Method.get, "/feeds/2", 404), (.post, "/feeds/2/posts", 404),
                (.put, "/feeds/2/outage", 404), (.delete, "/feeds/2/outage", 404),
                (.get, "/feeds/2/stats", 404), (.get, "/feeds/abc", 400),
                (.put, "/feeds/abc/outage", 400),
            ] {
                let answer = try await DemoServerTests.exchange(networker, base, path, method: method)
                #expect(answer.status == status, "\(method) \(path)")
                #expect(answer.body.hasPrefix(#"{"error":"#), "\(method) \(path)")
            }
        }
    }
}
