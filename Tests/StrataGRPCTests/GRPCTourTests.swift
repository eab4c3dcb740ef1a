import Foundation
import Strata
import StrataAsyncHTTPClient
import StrataDemoServer
import StrataGRPCDemo
import StrataTestSupport
import Testing

/// The demo's "Second protocol" section against the in-process HTTP and gRPC demo servers:
/// the same `User` both ways, a retry after `unavailable`, a refresh after `unauthenticated`.
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
        #expect(steps.map(\.passed) == [true, true, true], "\(steps.map(\.summary))")
        #expect(
            steps.map(\.summary) == [
                #"User(name: "Ann", photos: 2) both ways, through UserEntry → User"#,
                #"User(name: "Bob") on attempt 3 (after 2 × unavailable; the RetryPolicy and budget of HTTP)"#,
                #"unauthenticated → 1 refresh (a CredentialProvider, as for HTTP) → User(name: "Cleo")"#,
            ])
    }
}
