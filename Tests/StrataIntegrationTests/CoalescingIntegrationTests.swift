import Foundation
import HTTPTypes
import Hummingbird
import Strata
import StrataFaultServer
import StrataTestServer
import Testing

/// ``CoalescingMiddleware`` against servers on 127.0.0.1 on both transports: the servers
/// count the requests that reach them.
@Suite("Coalescing against a real server")
struct CoalescingIntegrationTests {
    /// Counts the requests a route serves, each held long enough for the others to join.
    final class Counter: Sendable {
        private let count = Locked(0)
        var value: Int { count.withLock { $0 } }

        func serve(holding duration: Duration) async throws {
            count.withLock { $0 += 1 }
            try await Deadline.sleep(for: duration)
        }
    }

    /// A server whose `/profile` answers `{"name":"<the Authorization field>","visits":N}`
    /// after `holding`, counting its requests.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    private static func withProfileServer(
        holding: Duration = .milliseconds(300),
        _ body: (_ base: String, _ served: Counter) async throws -> Void
    ) async throws {
        let served = Counter()
        try await TestServer.with(configure: { router in
            router.get("profile") { request, _ in
                try await served.serve(holding: holding)
                let name = request.headers[.authorization] ?? "anonymous"
                return #"{"name":"\#(name)","visits":\#(served.value)}"#
            }
        }) { server in
            try await body(server.baseURL.absoluteString, served)
        }
    }

    /// Runs `body` with a client that coalesces, over `kind`, and the profile server's route.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    private static func withProfileClient(
        _ kind: TransportKind,
        holding: Duration = .milliseconds(300),
        _ body: (_ networker: Networker, _ route: String, _ served: Counter) async throws -> Void
    ) async throws {
        try await withProfileServer(holding: holding) { base, served in
            try await kind.with { transport in
                try await body(
                    Networker(transport: transport, middleware: [CoalescingMiddleware()]), base + "/profile", served)
            }
        }
    }

    struct Profile: Decodable, Equatable {
        var name: String
        var visits: Int
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(arguments: TransportKind.allCases)
    func aHundredIdenticalGetsReachTheServerOnceAndEveryCallerParsesItsOwnModel(_ kind: TransportKind) async throws {
        try await Self.withProfileClient(kind) { networker, route, served in
            let results = try await withThrowingTaskGroup(of: (String?, Profile?, Coalescing?).self) { group in
                for index in 0..<100 {
                    group.addTask {
                        if index.isMultiple(of: 2) {
                            let response = try await networker.response(
                                for: Endpoint<String>(RequestDescription(route: route)))
                            return (response.value, nil, response.coalescing)
                        }
                        let response = try await networker.response(
                            for: Endpoint(RequestDescription(route: route), decoding: Profile.self))
                        return (nil, response.value, response.coalescing)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(served.value == 1)
            #expect(results.compactMap(\.0) == Array(repeating: #"{"name":"anonymous","visits":1}"#, count: 50))
            #expect(results.compactMap(\.1) == Array(repeating: Profile(name: "anonymous", visits: 1), count: 50))
            #expect(results.filter { $0.2 == .sent }.count == 1)
            #expect(results.filter { $0.2 == .joined }.count == 99)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(arguments: TransportKind.allCases)
    func twoUsersNeverShareAResponse(_ kind: TransportKind) async throws {
        try await Self.withProfileClient(kind) { networker, route, served in
            let names = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<20 {
                    let user = index.isMultiple(of: 2) ? "Bearer ann" : "Bearer bob"
                    group.addTask {
                        let request = RequestDescription(route: route, headers: ["Authorization": user])
                        return try await networker.send(Endpoint(request, decoding: Profile.self)).name
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(served.value == 2)
            #expect(
                names.sorted() == Array(repeating: "Bearer ann", count: 10)
                    + Array(repeating: "Bearer bob", count: 10))
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(arguments: TransportKind.allCases)
    func theCallerThatSentTheRequestGivesUpAndTheOtherNineStillGetIt(_ kind: TransportKind) async throws {
        try await Self.withProfileClient(kind, holding: .seconds(5)) { networker, route, served in
            let endpoint = Endpoint(RequestDescription(route: route), decoding: Profile.self)
            let first = Task { try await networker.response(for: endpoint) }
            while served.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
            let others = Task {
                try await withThrowingTaskGroup(of: EndpointResponse<Profile>.self) { group in
                    for _ in 0..<9 { group.addTask { try await networker.response(for: endpoint) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            try await Task.sleep(for: .milliseconds(300))  // the nine have joined
            let cancelledAt = ContinuousClock.now
            first.cancel()
            let firstError = await #expect(throws: StrataError.self) { try await first.value }
            #expect(firstError?.kind == .cancelled)
            // At once, not when the shared request ends over 4 s later (a loaded machine
            // took 1.4 s to end it).
            #expect(cancelledAt.duration(to: .now) < .seconds(3))
            let responses = try await others.value
            #expect(responses.map(\.value) == Array(repeating: Profile(name: "anonymous", visits: 1), count: 9))
            #expect(responses.map(\.coalescing) == Array(repeating: .joined, count: 9))
            #expect(served.value == 1)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(arguments: TransportKind.allCases)
    func whenEveryCallerGivesUpTheSharedRequestIsCancelledAndTheServerSeesTheConnectionClose(
        _ kind: TransportKind
    ) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport, middleware: [CoalescingMiddleware()])
                let endpoint = Endpoint<Data>(RequestDescription(route: server.url(for: .neverAnswer).absoluteString))
                let callers = (0..<5).map { _ in Task { try await networker.send(endpoint) } }
                while server.requestCount == 0 || server.openConnectionCount == 0 {
                    try await Task.sleep(for: .milliseconds(5))
                }
                try await Task.sleep(for: .milliseconds(50))
                callers[0].cancel()
                try await Task.sleep(for: .milliseconds(100))
                #expect(server.openConnectionCount == 1)  // four callers are left: the request goes on
                for caller in callers.dropFirst() { caller.cancel() }
                for caller in callers {
                    let error = await #expect(throws: StrataError.self) { try await caller.value }
                    #expect(error?.kind == .cancelled)
                }
                let start = ContinuousClock.now
                while server.openConnectionCount > 0, start.duration(to: .now) < .seconds(5) {
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(server.openConnectionCount == 0)
                #expect(server.requestCount == 1)
            }
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(arguments: TransportKind.allCases)
    func aJoinedCallerKeepsItsOwnDeadline(_ kind: TransportKind) async throws {
        try await Self.withProfileClient(kind, holding: .seconds(2)) { networker, route, served in
            let endpoint = Endpoint(RequestDescription(route: route), decoding: Profile.self)
            let sender = Task { try await networker.send(endpoint) }
            while served.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
            let start = ContinuousClock.now
            let error = await #expect(throws: StrataError.self) {
                try await networker.send(endpoint.timeout(.milliseconds(100)))
            }
            let waited = start.duration(to: .now)
            #expect(error?.kind == .transport)
            #expect((error?.underlying as? TransportError)?.kind == .timedOut)
            #expect(error?.coalescing == nil)
            // Its own 100 ms, not the shared request's 2 s.
            #expect(waited >= .milliseconds(100) && waited < .seconds(1), "\(waited)")
            #expect(try await sender.value == Profile(name: "anonymous", visits: 1))
            #expect(served.value == 1)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(arguments: TransportKind.allCases)
    func aStreamedCallAndAnEndpointThatOptsOutSendTheirOwn(_ kind: TransportKind) async throws {
        try await Self.withProfileClient(kind) { networker, route, served in
            let endpoint = Endpoint<String>(RequestDescription(route: route))
            async let shared = networker.response(for: endpoint)
            async let alone = networker.response(for: endpoint.coalesces(false))
            async let streamed = networker.stream(endpoint).1.collect(upTo: 1_000)
            let (sharedResponse, aloneResponse, streamedBody) = try await (shared, alone, streamed)
            #expect(served.value == 3)
            #expect(sharedResponse.coalescing == .sent)
            #expect(aloneResponse.coalescing == nil)
            #expect(String(decoding: streamedBody, as: UTF8.self).hasPrefix(#"{"name":"anonymous","visits":"#))
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(arguments: TransportKind.allCases)
    func aCallerThatDiffersInAFieldTheResponseVariesOnSendsItsOwnAndPostsAreNeverShared(
        _ kind: TransportKind
    ) async throws {
        let served = Counter()
        try await TestServer.with(configure: { router in
            router.on("tenant", method: .get) { request, _ in
                try await served.serve(holding: .milliseconds(300))
                let tenant = request.headers[HTTPField.Name("X-Tenant")!] ?? "none"
                return Response(
                    status: .ok, headers: [.vary: "X-Tenant"], body: .init(byteBuffer: ByteBuffer(string: tenant)))
            }
            router.on("tenant", method: .post) { _, _ in
                try await served.serve(holding: .milliseconds(300))
                return "posted"
            }
        }) { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport, middleware: [CoalescingMiddleware()])
                let route = server.baseURL.absoluteString + "/tenant"
                let send: @Sendable (String) async throws -> String = { tenant in
                    try await networker.send(
                        Endpoint<String>(RequestDescription(route: route, headers: ["X-Tenant": tenant])))
                }
                let sender = Task { try await send("north") }
                while served.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
                var tenants = try await withThrowingTaskGroup(of: String.self) { group in
                    for tenant in ["north", "north", "north", "south-4", "south-5"] {
                        group.addTask { try await send(tenant) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                tenants.append(try await sender.value)
                // One request for the four north callers and one each for the two that differ,
                // which learn it only when the shared response arrives.
                #expect(tenants.sorted() == ["north", "north", "north", "north", "south-4", "south-5"])
                #expect(served.value == 3)
                async let first = networker.send(Endpoint<String>(RequestDescription(route: route, method: .post)))
                async let second = networker.send(Endpoint<String>(RequestDescription(route: route, method: .post)))
                #expect(try await [first, second] == ["posted", "posted"])
                #expect(served.value == 5)
            }
        }
    }
}
