import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdHTTP2
import Logging
import Strata
import StrataAsyncHTTPClient
import StrataObservability
import StrataServerLifecycle
import StrataTestCertificates
import StrataTestSupport
import StrataTesting
import Testing

/// Which HTTP version answered, as the attempt report carries it to the log line, the span
/// (`network.protocol.version`) and HAR: against an HTTP/2 server over TLS on 127.0.0.1
/// (Hummingbird's, with ALPN offering `h2` and `http/1.1`, and a certificate made as the test
/// runs), AsyncHTTPClient speaks 2, and 1.1 when its configuration requires HTTP/1.1.
@Suite struct HTTPVersionTests {
    @Test(arguments: [
        (HTTPClient.Configuration.HTTPVersion.automatic, "2"), (HTTPClient.Configuration.HTTPVersion.http1Only, "1.1"),
    ])
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func theAttemptSaysWhichHTTPVersionAnswered(httpVersion: HTTPClient.Configuration.HTTPVersion, expected: String)
        async throws
    {
        let authority = try TestCertificateAuthority(commonName: "HTTP/2 Test CA")
        let router = Router()
        router.get("hello") { _, _ in "hello over h2" }
        var serverLogger = Logger(label: "h2-server")
        serverLogger.logLevel = .critical
        let server = try await InProcessServer.start(
            router: router, server: .http2Upgrade(tlsConfiguration: try authority.issue().serverTLSConfiguration()),
            serverName: "h2", logger: serverLogger)
        let log = EventLog()
        let logger = Logger(label: "versions") { _ in CapturingLogHandler(log: log) }
        let telemetry = TelemetryTests.Setup()
        let recorder = HARRecorder()
        do {
            var configuration = HTTPClient.Configuration.strataDefault
            configuration.httpVersion = httpVersion
            let transport = try AsyncHTTPClientTransport(
                configuration: configuration,
                trust: ServerTrust(default: TrustPolicy(roots: .only([authority.root.certificate]))))
            let body = try await transport.shuttingDown { transport in
                let networker = Networker(
                    transport: HARRecordingTransport(wrapping: transport, into: recorder),
                    middleware: [
                        LoggingMiddleware(logger: logger, logsHeaders: false),
                        TelemetryMiddleware(tracer: telemetry.tracer, metrics: telemetry.metrics),
                    ])
                return try await networker.send(
                    Endpoint<String>(RequestDescription(route: URL(string: "https://localhost:\(server.port)/hello")!)))
            }
            #expect(body == "hello over h2")
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
        let heads = log.all.filter { $0.hasPrefix("info ← ") }
        #expect(heads.count == 1)
        #expect(heads.allSatisfy { $0.contains(" network.protocol.version=\(expected) ") })
        #expect(
            telemetry.tracer.finishedSpans.map { TelemetryTests.attribute($0, "network.protocol.version") }
                == [expected])
        #expect(recorder.har.log.entries.map(\.response.httpVersion) == ["HTTP/\(expected)"])
    }
}
