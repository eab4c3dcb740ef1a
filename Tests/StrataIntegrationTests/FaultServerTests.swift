import CompressNIO
import Foundation
import NIOCore
import NIOPosix
import Strata
import StrataFaultServer
import StrataTestSupport
import Testing

/// The fault server itself: its routes round-trip, its gzip bodies are what they claim,
/// and it records what it receives.
@Suite("Fault server", .isTimed)
struct FaultServerTests {
    static let routes: [FaultRoute] =
        FaultRoute.allWithoutParameters + [
            .chain(0), .chain(12), .redirect(status: 307, to: "/ok", withBody: false),
            .redirect(status: 301, to: "http://127.0.0.1:9/a b?x=1&y=%20#frag", withBody: true),
        ]

    @Test(arguments: routes)
    func routeRoundTripsThroughItsTarget(_ route: FaultRoute) {
        #expect(FaultRoute(target: route.target) == route)
    }

    @Test func redirectTargetPercentEncodesItsLocation() {
        let route = FaultRoute.redirect(status: 302, to: "http://127.0.0.1:9/a?b=1&c", withBody: false)
        #expect(route.target == "/redirect?status=302&to=http%3A%2F%2F127.0.0.1%3A9%2Fa%3Fb%3D1%26c")
    }

    @Test func unknownTargetsSelectNoRoute() {
        #expect(FaultRoute(target: "/nope") == nil)
        #expect(FaultRoute(target: "/redirect?status=200&to=/ok") == nil)
        #expect(FaultRoute(target: "/chain/-1") == nil)
    }

    @Test func intactGzipInflatesToTheText() throws {
        var gzip = try GzipBodies.intact
        var text = try gzip.decompress(with: .gzip())
        #expect(text.readString(length: text.readableBytes) == GzipBodies.text)
        #expect(GzipBodies.text.utf8.count == 8_800)
    }

    @Test func truncatedGzipIsTheFirstHalfAndInflatesToAPrefixOnly() throws {
        let truncated = try GzipBodies.truncated
        let intact = try GzipBodies.intact
        #expect(truncated.readableBytes == intact.readableBytes / 2)
        #expect(truncated == intact.getSlice(at: 0, length: truncated.readableBytes))
        // zlib inflates what there is without complaint; only the missing end of the
        // stream (no final block, no trailer) tells that it was cut.
        var gzip = truncated
        var text = try gzip.decompress(with: .gzip())
        #expect(text.readString(length: text.readableBytes) == String(GzipBodies.text.utf8.prefix(4187)))
    }

    @Test func bombInflatesToExactlyItsSizeOfZeros() throws {
        var bomb = try GzipBodies.bomb(inflatedMiB: 4)
        var inflated = ByteBufferAllocator().buffer(capacity: 4 << 20)
        try bomb.decompress(to: &inflated, with: .gzip())
        #expect(inflated == ByteBuffer(repeating: 0, count: 4 << 20))
    }

    @Test func fullBombIsAboutOneMebibyteForOneGibibyte() throws {
        #expect(GzipBodies.bombInflatedSize == 1 << 30)
        #expect(try GzipBodies.bomb.readableBytes == 1_060_888)
        #expect(throws: GzipBodiesError.bombTooSmall) { try GzipBodies.bomb(inflatedMiB: 0) }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func recordsRequestsAndKeepsWellBehavedConnectionsAlive(_ transport: TransportKind) async throws {
        try await FaultServer.with { server in
            try await transport.with { client in
                let networker = FaultExchange.networker(over: client)
                for _ in 0..<3 {
                    let (observation, _) = await FaultExchange.run(
                        server.url(for: .ok), with: networker, method: .post, headers: [.authorization: "Bearer t"],
                        body: Data("ping".utf8))
                    #expect(observation.outcome == .success(200, body: FaultResponses.okBody))
                }
                #expect(server.requestCount == 3)
                #expect(server.connectionCount == 1)
                #expect(server.requests.map(\.method) == ["POST", "POST", "POST"])
                #expect(server.requests.map(\.target) == ["/ok", "/ok", "/ok"])
                #expect(server.requests.map(\.connection) == [1, 1, 1])
                #expect(server.requests.map(\.body) == Array(repeating: Array("ping".utf8), count: 3))
                #expect(
                    server.requests.map { $0.value(for: "AUTHORIZATION") } == Array(repeating: "Bearer t", count: 3))
            }
        }
    }
}

/// A fault server shutting down while connections keep arriving finishes every one it
/// set up: a connection set up as the listener closes never reaches the accept loop,
/// and freed unfinished it would trap in SwiftNIO.
@Suite("Fault server shutdown", .runsAlone)
struct FaultServerShutdownTests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func shutdownWhileConnectionsArriveLeavesNoneOpen() async throws {
        for _ in 0..<40 {
            let server = try await FaultServer.start()
            let port = server.baseURL.port ?? 0
            let connecting = Task {
                var connected = 0
                while !Task.isCancelled {
                    guard
                        let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                            .connect(host: "127.0.0.1", port: port).get()
                    else { break }
                    connected += 1
                    channel.close(promise: nil)
                }
                return connected
            }
            // Shut down once connections flow, however loaded the machine.
            for _ in 0..<5_000 where server.connectionCount == 0 {
                try await Deadline.sleep(for: .milliseconds(1))
            }
            try await Deadline.sleep(for: .microseconds(Int.random(in: 0...2_000)))
            await server.shutdown()
            connecting.cancel()
            let connected = await connecting.value
            #expect(connected >= 1)
            #expect(server.openConnectionCount == 0)
        }
    }
}
