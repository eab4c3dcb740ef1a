import Testing

@testable import Strata
@testable import StrataCore

/// The keep-alive driven by instants alone: when it pings, when it gives up on a silent
/// peer (ping interval + pong timeout after the last sign of life), when it calls a
/// connection idle.
struct WebSocketKeepAliveTests {
    let start = ContinuousClock.now

    func keepAlive(ping: Duration?, pong: Duration = .seconds(2), idle: Duration? = nil) -> WebSocketKeepAlive {
        var configuration = WebSocketConfiguration()
        configuration.pingInterval = ping
        configuration.pongTimeout = pong
        configuration.idleTimeout = idle
        return WebSocketKeepAlive(configuration, now: start)
    }

    @Test func aSilentPeerIsGivenUpWithinPingIntervalPlusPongTimeout() {
        var keepAlive = keepAlive(ping: .seconds(5))
        #expect(keepAlive.next(now: start) == .sleep(until: start + .seconds(5)))
        #expect(keepAlive.next(now: start + .seconds(5)) == .ping)
        #expect(keepAlive.next(now: start + .seconds(5)) == .sleep(until: start + .seconds(7)))
        #expect(keepAlive.next(now: start + .milliseconds(6_999)) == .sleep(until: start + .seconds(7)))
        #expect(keepAlive.next(now: start + .seconds(7)) == .unresponsive)
    }

    @Test func aPongKeepsThePeerAndTheNextPingComesAnIntervalLater() {
        var keepAlive = keepAlive(ping: .seconds(5))
        #expect(keepAlive.next(now: start + .seconds(5)) == .ping)
        keepAlive.pongReceived()
        #expect(keepAlive.next(now: start + .seconds(6)) == .sleep(until: start + .seconds(10)))
        #expect(keepAlive.next(now: start + .seconds(10)) == .ping)
        keepAlive.pongReceived()
        #expect(keepAlive.next(now: start + .seconds(12)) == .sleep(until: start + .seconds(15)))
    }

    /// A ping interval shorter than the pong timeout: one ping in flight, its timeout kept.
    @Test func onePingIsInFlightAtATime() {
        var keepAlive = keepAlive(ping: .seconds(1), pong: .seconds(3))
        #expect(keepAlive.next(now: start + .seconds(1)) == .ping)
        #expect(keepAlive.next(now: start + .seconds(2)) == .sleep(until: start + .seconds(3)))
        #expect(keepAlive.next(now: start + .seconds(3)) == .sleep(until: start + .seconds(4)))
        #expect(keepAlive.next(now: start + .seconds(4)) == .unresponsive)
    }

    @Test func idlenessCountsMessagesNotPings() {
        var keepAlive = keepAlive(ping: .seconds(1), pong: .seconds(1), idle: .seconds(3))
        #expect(keepAlive.next(now: start + .seconds(1)) == .ping)
        keepAlive.pongReceived()
        keepAlive.messageMoved(at: start + .seconds(2))
        #expect(keepAlive.next(now: start + .seconds(2)) == .ping)
        keepAlive.pongReceived()
        #expect(keepAlive.next(now: start + .milliseconds(2_500)) == .sleep(until: start + .seconds(3)))
        #expect(keepAlive.next(now: start + .seconds(3)) == .ping)
        keepAlive.pongReceived()
        #expect(keepAlive.next(now: start + .seconds(4)) == .ping)
        keepAlive.pongReceived()
        #expect(keepAlive.next(now: start + .seconds(5)) == .idle)
    }

    @Test func withoutPingsOrIdleLimitThereIsNothingToWatch() {
        var keepAlive = keepAlive(ping: nil)
        #expect(keepAlive.next(now: start + .seconds(3600)) == .none)
        var idleOnly = self.keepAlive(ping: nil, idle: .seconds(10))
        #expect(idleOnly.next(now: start) == .sleep(until: start + .seconds(10)))
        #expect(idleOnly.next(now: start + .seconds(10)) == .idle)
    }

    @Test(arguments: [
        (WebSocketClosure(code: .goingAway, byPeer: true), true),
        (WebSocketClosure(code: .abnormalClosure, byPeer: true), true),
        (WebSocketClosure(code: WebSocketCloseCode(rawValue: 1012), byPeer: true), true),
        (WebSocketClosure(code: .normalClosure, byPeer: true), false),
        (WebSocketClosure(code: .unsupportedData, byPeer: true), false),
        (WebSocketClosure(code: .policyViolation, byPeer: true), false),
        (WebSocketClosure(code: WebSocketCloseCode(rawValue: 4000), byPeer: true), false),
        (WebSocketClosure(code: WebSocketCloseCode(rawValue: 4999), byPeer: true), false),
        (WebSocketClosure(code: .goingAway, byPeer: false), false),
    ])
    func finalCodesEndTheSocket(_ closure: WebSocketClosure, reconnects: Bool) {
        #expect(WebSocketReconnection().reconnects(after: closure) == reconnects)
    }

    @Test func applicationCodesCanBeMadeWorthAReconnection() {
        let reconnection = WebSocketReconnection(applicationCodesAreFinal: false)
        #expect(
            reconnection.reconnects(after: WebSocketClosure(code: WebSocketCloseCode(rawValue: 4001), byPeer: true)))
    }
}
