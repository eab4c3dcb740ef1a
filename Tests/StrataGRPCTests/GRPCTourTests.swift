import Foundation
import Strata
import StrataAsyncHTTPClient
import StrataDemoServer
import StrataGRPCDemo
import StrataTestSupport
import StrataURLSession
import Testing

/// The demo's "Second protocol" section against the in-process HTTP and gRPC demo servers:
/// the same `User` both ways, a retry after `unavailable`, a refresh after `unauthenticated`,
/// an upload in a client stream, a chat over a bidirectional call.
@Suite("The demo's second-protocol tour", .isTimed)
struct GRPCTourTests {
    @Test func everyStepBehavesAsExpected() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let http = try await DemoServer.start()
        let grpc = try await DemoGRPCServer.start()
        let transport = AsyncHTTPClientTransport()
        let steps = await GRPCTour(grpcPort: grpc.port, httpBaseURL: http.baseURL, httpTransport: transport).run()
        try await transport.shutdown()
        await grpc.shutdown()
        await http.shutdown()
        #expect(steps.map(\.passed) == [true, true, true, true, true], "\(steps.map(\.summary))")
        #expect(
            steps.map(\.summary) == [
                #"User(name: "Ann", photos: 2) both ways, through UserEntry → User"#,
                #"User(name: "Bob") on attempt 3 (after 2 × unavailable; the RetryPolicy and budget of HTTP)"#,
                #"unauthenticated → 1 refresh (a CredentialProvider, as for HTTP) → User(name: "Cleo")"#,
                "4 PhotoUploads sent → 2 added to 1 album; refused 1-1, 99-1 (already there, no user 99)",
                "3 lines sent, 6 received in order; the last: host: bye, ann",
            ])
    }
}

/// The demo's "Trust" section, on both HTTP transports.
@Suite("The demo's trust tour", .isTimed)
struct TrustTourTests {
    @Test func everyStepBehavesAsExpectedOverAsyncHTTPClient() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let transport = AsyncHTTPClientTransport()
        let steps = await TrustTour(transport: transport) { try AsyncHTTPClientTransport(trust: $0) }.run()
        try await transport.shutdown()
        #expect(steps.map(\.passed) == [true, true, true, true, true], "\(steps.map(\.summary))")
        let summaries = steps.map(\.summary)
        #expect(summaries.first == "refused: untrusted certificate — a CA nobody told the client about")
        #expect(summaries.dropFirst().first?.hasPrefix(#"User(name: "Ann") from https://localhost:"#) == true)
        #expect(
            summaries.dropFirst(2).first?.hasPrefix(
                "refused when made, as it should be: AsyncHTTPClientTransport cannot apply pins: ") == true)
        #expect(summaries.dropFirst(3).first?.hasPrefix("GetUser(1) → Ann, pinned to sha256/") == true)
        #expect(summaries.last?.hasPrefix("refused: public key pin mismatch; the server presented sha256/") == true)
    }

    @Test func everyStepBehavesAsExpectedOverURLSession() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let steps = await TrustTour(transport: URLSessionTransport()) { try URLSessionTransport(trust: $0) }.run()
        #expect(steps.map(\.passed) == [true, true, true, true, true], "\(steps.map(\.summary))")
    }
}
