import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import HTTPTypes
import Logging
import Strata
import StrataDemo
import StrataGRPC
import StrataGRPCDemo
import StrataTestSupport
import Testing

@Suite("GRPCLoggingInterceptor", .isTimed)
struct GRPCLoggingTests {
    /// A call retried twice logs three attempts, the two rejections and the answer, with
    /// its credential redacted.
    @Test func everyAttemptIsLoggedWithCredentialsRedacted() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let log = EventLog()
        let logger = Logger(label: "grpc") { _ in CapturingLogHandler(log: log) }
        let getUser = Strata_Demo_V1_UserService.Method.GetUser.descriptor
        let server = try await DemoGRPCServer.start()
        let networker = GRPCNetworker(
            transport: try HTTP2ClientTransport.Posix(
                target: .ipv4(address: "127.0.0.1", port: server.port), transportSecurity: .plaintext),
            interceptors: [GRPCLoggingInterceptor(logger: logger)]
                + .resilient(retry: RetryPolicy(initialBackoff: .milliseconds(5)), idempotentMethods: [getUser]))
        let connections = Task { try await networker.runConnections() }
        var request = try RequestDescription(
            route: GRPCRoute(getUser), message: Strata_Demo_V1_GetUserRequest.with { $0.id = 1 })
        request.headers[.authorization] = "Bearer secret"
        request.headers[HTTPField.Name("x-demo-flaky")!] = "logging"
        let user = try await networker.send(GRPCEndpoint(request, decoding: User.self))
        networker.beginGracefulShutdown()
        _ = await connections.result
        await server.shutdown()

        #expect(user.name == "Ann")
        let lines = log.all
        let target = "/strata.demo.v1.UserService/GetUser"
        #expect(lines.filter { $0.hasPrefix("info → \(target) ") }.count == 3)
        #expect(lines.filter { $0.contains("strata.attempt=3 ") }.count == 1)
        #expect(
            lines.filter { $0.hasPrefix("error ✕ unavailable \(target) (") }.map {
                $0.contains("temporarily unavailable (call ")
            } == [true, true])
        #expect(lines.filter { $0.hasPrefix("info ← OK \(target) (") }.count == 1)
        #expect(lines.allSatisfy { !$0.contains("secret") })
        #expect(lines.allSatisfy { !$0.contains("⇅") })  // a unary call's "← OK" says it all
        #expect(lines.first?.contains("authorization: <redacted>") == true)
    }
}
