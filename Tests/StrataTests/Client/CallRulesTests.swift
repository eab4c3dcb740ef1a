import Foundation
import HTTPTypes
import Strata
import StrataTesting
import Testing

/// The rules a call's steps share, each stated once and public, so that an app's own step
/// asks them as Strata's do: is this a cancellation, a timeout, has the deadline passed,
/// read a body under the deadline, does the client have a step.
@Suite struct CallRulesTests {
    static let request = HTTPRequest(method: .get, scheme: "https", authority: "api.test", path: "/")

    @Test func aCancellationIsEitherTheTasksOrTheCallsReport() {
        #expect(StrataError.isCancellation(CancellationError()))
        #expect(StrataError.isCancellation(StrataError(.cancelled, request: Self.request)))
        #expect(!StrataError.isCancellation(TransportError(.timedOut)))
        #expect(
            !StrataError.isCancellation(
                StrataError(.transport, underlying: TransportError(.connectionLost), request: Self.request)))
        #expect(!StrataError.isCancellation(URLError(.cancelled)))
    }

    @Test func aTimeoutIsATimedOutTransportErrorBareOrReported() {
        let timedOut = StrataError(.transport, underlying: TransportError(.timedOut), request: Self.request)
        #expect(StrataError.isTimeout(TransportError(.timedOut)))
        #expect(StrataError.isTimeout(timedOut))
        #expect(timedOut.isTimeout)
        #expect(!StrataError.isTimeout(TransportError(.connectionLost)))
        #expect(!StrataError.isTimeout(CancellationError()))
        #expect(!StrataError.isTimeout(StrataError(.cancelled, request: Self.request)))
    }

    @Test func theDeadlineHasPassedOnlyWhenThereIsOneAndItIsOver() {
        #expect(!MiddlewareContext(deadline: nil).deadlineHasPassed)
        #expect(MiddlewareContext(deadline: .now - .milliseconds(1)).deadlineHasPassed)
        #expect(!MiddlewareContext(deadline: .now + .seconds(60)).deadlineHasPassed)
    }

    @Test func aBodyInMemoryIsReadEvenPastTheDeadline() async throws {
        let read = await MessageBody("hello").read(until: .now - .seconds(1)) { await $0.prefix(3) }
        #expect(!read.timedOut)
        #expect(try read.result.get() == Data("hel".utf8))
    }

    @Test func aStalledBodyIsGivenUpAtTheDeadline() async throws {
        let stalled = MessageBody(length: nil, streaming: AsyncStream<Data> { _ in })
        let start = ContinuousClock.now
        let read = await stalled.read(until: .now + .milliseconds(100)) { try await $0.collect(upTo: 1024) }
        #expect(read.timedOut)
        #expect(start.duration(to: .now) < .seconds(10))
        // A body that keeps its pace is read whole.
        let chunks = MessageBody(
            length: nil,
            streaming: AsyncStream<Data> { continuation in
                continuation.yield(Data("ab".utf8))
                continuation.yield(Data("c".utf8))
                continuation.finish()
            })
        let whole = await chunks.read(until: .now + .seconds(30)) { try await $0.collect(upTo: 1024) }
        #expect(!whole.timedOut)
        #expect(try whole.result.get() == Data("abc".utf8))
    }

    @Test func aClientsStepsAreItsDefaultsItDoesNotReplaceThenItsOwn() {
        let retry = RetryMiddleware()
        let plain = Networker(transport: MockTransport())
        #expect(plain.installedStep(RetryMiddleware.self) == nil)
        #expect(plain.steps.count == Networker.Configuration().defaultMiddleware.count)
        let retrying = Networker(transport: MockTransport(), middleware: [retry])
        #expect(retrying.installedStep(RetryMiddleware.self)?.policy == retry.policy)
        #expect(retrying.steps.count == plain.steps.count + 1)
        #expect(retrying.steps.last is RetryMiddleware)
    }
}
