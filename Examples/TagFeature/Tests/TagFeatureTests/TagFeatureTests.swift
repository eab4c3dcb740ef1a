import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Strata
import StrataURLSession
import TagFeature
import Testing

/// A server on 127.0.0.1 and a free port: `/tagged` answers the `X-Tag` it got as text,
/// `/missing` answers 404, `/lines` sends two lines and then stalls for 30 seconds.
func withServer(_ body: (URL) async throws -> Void) async throws {
    let router = Router()
    router.get("tagged") { request, _ in request.headers[HTTPField.Name("X-Tag")!] ?? "none" }
    router.get("missing") { _, _ in Response(status: .notFound) }
    router.get("lines") { _, _ in
        Response(
            status: .ok,
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "first\nsecond\n"))
                try await Task.sleep(for: .seconds(30))
                try await writer.finish(nil)
            })
    }
    let (ports, port) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: "tag-feature-tests")
    logger.logLevel = .critical
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            port.yield(channel.localAddress?.port ?? 0)
            port.finish()
        },
        logger: logger)
    let server = Task { try await app.run() }
    defer { server.cancel() }
    var iterator = ports.makeAsyncIterator()
    let bound = try #require(await iterator.next())
    try await body(try #require(URL(string: "http://127.0.0.1:\(bound)/")))
}

@Suite struct TagFeatureTests {
    let networker = Networker(transport: URLSessionTransport(), middleware: [TagStep(), StampHeaderStep()])

    @Test func aTaggedCallSendsTheStampAndRecordsWhatCameBack() async throws {
        try await withServer { base in
            let tagged = try await networker.response(
                for: Endpoint(RequestDescription(route: try base + "tagged"), decoding: String.self).tag("x"))
            #expect(tagged.value == "stamped-x")
            #expect(tagged.tag == TagRecord(sent: "x", status: 200))

            let untagged = try await networker.response(
                for: Endpoint(RequestDescription(route: try base + "tagged"), decoding: String.self))
            #expect(untagged.value == "none")
            #expect(untagged.tag == nil)
        }
    }

    @Test func theRecordReachesTheErrorAndItsDescription() async throws {
        try await withServer { base in
            let missing = Endpoint(RequestDescription(route: try base + "missing"), decoding: String.self)
                .map { $0.count }.tag("y")
            let error = await #expect(throws: StrataError.self) { try await networker.send(missing) }
            #expect(error?.kind == .unacceptableStatus)
            #expect(error?.tag == TagRecord(sent: "y", status: 404))
            #expect(error.map { "\($0)".contains("(tagged y)") } == true)
        }
    }

    /// The step's wait ends at the call's deadline, as a timeout of the call, and nothing
    /// was sent.
    @Test func theStepsWaitEndsAtTheCallsDeadline() async throws {
        try await withServer { base in
            let slow = Networker(
                transport: URLSessionTransport(), middleware: [TagStep(pace: .seconds(30)), StampHeaderStep()])
            let endpoint = Endpoint(RequestDescription(route: try base + "tagged"), decoding: String.self)
                .tag("z").timeout(.milliseconds(200))
            let error = await #expect(throws: StrataError.self) { try await slow.send(endpoint) }
            #expect(error?.isTimeout == true)
            #expect(error?.phase == .awaitingHead)
            #expect(error?.tag == TagRecord(sent: "z", status: nil))
        }
    }

    /// The feature's streamed read ends at the call's deadline with the error a built-in
    /// feature gets: the call's timeout, phase "reading the body", with the request and the
    /// response head; the lines that came before it were handed over.
    @Test func aStreamedReadEndsAtTheCallsDeadlineAsTheCallsTimeout() async throws {
        try await withServer { base in
            let endpoint = Endpoint(RequestDescription(route: try base + "lines"), decoding: Data.self).timeout(
                .milliseconds(300))
            let (lines, seen) = AsyncStream.makeStream(of: String.self)
            let thrown = await #expect(throws: StrataError.self) {
                _ = try await networker.tagLines(endpoint, tag: "feed") { seen.yield($0) }
            }
            seen.finish()
            let error = try #require(thrown)
            #expect(await lines.reduce(into: []) { $0.append($1) } == ["first", "second"])
            #expect(error.kind == .transport)
            #expect(error.transportError?.kind == .timedOut)
            #expect(error.phase == .readingBody)
            #expect(error.request?.path == "/lines")
            #expect(error.response?.status == .ok)
        }
    }

    /// Cancelling the task that reads ends the read as the call's cancellation, with the
    /// request and the response head, at once rather than at the server's pace.
    @Test func cancellingTheReadEndsItAsTheCallsCancellation() async throws {
        try await withServer { base in
            let endpoint = Endpoint(RequestDescription(route: try base + "lines"), decoding: Data.self)
            let (firstLine, seen) = AsyncStream.makeStream(of: String.self)
            let reading = Task {
                try await networker.tagLines(endpoint, tag: "feed") { seen.yield($0) }
            }
            var lines = firstLine.makeAsyncIterator()
            #expect(await lines.next() == "first")
            reading.cancel()
            let error = try #require(await reading.result.failure as? StrataError)
            #expect(error.kind == .cancelled)
            #expect(error.phase == .readingBody)
            #expect(error.request?.path == "/lines")
            #expect(error.response?.status == .ok)
        }
    }

    /// The public rules a feature relies on: a timeout and a cancellation are told apart,
    /// and the errors from further down pass through steps untouched.
    @Test func theRulesAFeatureUsesArePublic() {
        #expect(StrataError.isTimeout(TransportError(.timedOut)))
        #expect(!StrataError.isTimeout(CancellationError()))
        #expect(StrataError.isCancellation(CancellationError()))
        #expect(StrataError.passesThroughSteps(TransportError(.connectionRefused)))
        struct Own: Error {}
        #expect(!StrataError.passesThroughSteps(Own()))
    }
}

extension Result {
    /// The error, or `nil` for a success.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
