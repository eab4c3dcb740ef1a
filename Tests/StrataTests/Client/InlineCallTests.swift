import Foundation
import HTTPTypes
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// Which clients run their calls in the caller's task, and that such a call still ends at
/// its deadline while the body is read.
@Suite(.isTimed) struct InlineCallTests {
    /// A transport that says it bounds its requests, answering with `respond`.
    struct BoundedTransport: Transport {
        let respond: @Sendable () -> (HTTPResponse, MessageBody?)
        var enforcesDeadline: Bool { true }

        func send(_ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?) async throws -> (
            HTTPResponse, MessageBody?
        ) {
            respond()
        }
    }

    /// An app's own step.
    struct AppStep: Middleware {
        func intercept(
            _ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext,
            next: MiddlewareNext
        ) async throws -> (HTTPResponse, MessageBody?) {
            try await next(request, body, context)
        }
    }

    /// A store Strata cannot vouch for.
    struct AppStore: CacheStore {
        func variants(for key: CacheKey) async throws -> [CachedResponse] { [] }
        func store(_ response: CachedResponse, for key: CacheKey) async throws {}
        func remove(_ key: CacheKey) async throws {}
        func removeAll() async throws {}
    }

    static let bounded = BoundedTransport { (HTTPResponse(status: .ok), MessageBody("ok")) }

    @Test func onlyStrataStepsOverATransportThatBoundsItsRequestsRunInline() {
        #expect(Networker(transport: Self.bounded).runsInline(MiddlewareContext()))
        #expect(Networker(transport: Self.bounded, middleware: .resilient()).runsInline(MiddlewareContext()))
        #expect(
            Networker(transport: Self.bounded, middleware: [CacheMiddleware(store: MemoryCacheStore())]).runsInline(
                MiddlewareContext()))
        #expect(!Networker(transport: Self.bounded, middleware: [AppStep()]).runsInline(MiddlewareContext()))
        #expect(
            !Networker(transport: Self.bounded, middleware: [CacheMiddleware(store: AppStore())]).runsInline(
                MiddlewareContext()))
        #expect(!Networker(transport: ClosureTransport.json("{}")).runsInline(MiddlewareContext()))
    }

    @Test func anInlineCallStillStopsAStalledBodyAtTheDeadline() async {
        let transport = BoundedTransport {
            (HTTPResponse(status: .ok), MessageBody(length: nil, streaming: PipelineContractTests.StallingChunks()))
        }
        var configuration = Networker.Configuration()
        configuration.timeout = .milliseconds(300)
        let networker = Networker(transport: transport, configuration: configuration)
        #expect(networker.runsInline(MiddlewareContext()))
        let start = ContinuousClock.now
        let error = await #expect(throws: StrataError.self) {
            try await networker.send(Endpoint<Data>(RequestDescription(route: "https://api.test/stalls")))
        }
        // The stall never ends on its own, so a timeout error is the deadline's doing; the bound
        // tells the 0.3 s deadline from a backstop that would come much later, with room for
        // a loaded ThreadSanitizer run (3.7 s seen beside the property suites).
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(error?.isTimeout == true)
        #expect(error?.phase == .readingBody)
        #expect(error?.status == .ok)
    }

    @Test func anInlineCallAnswersAsAnyOther() async throws {
        let response = try await Networker(transport: Self.bounded).response(
            for: Endpoint<String>(RequestDescription(route: "https://api.test/ok")))
        #expect(response.value == "ok")
        #expect(response.head.status == .ok)
    }
}
