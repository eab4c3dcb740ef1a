import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import Strata

/// Routes that stream large or endless bodies, for tests of streaming, limits and
/// cancellation; add them with ``register(on:probe:)`` in ``TestServer/start(configure:)``.
///
/// Each route takes a `name`, under which the ``StreamProbe`` reports the end of its
/// body writer, which is how a test sees that the client went away.
///
/// - `GET /declared/{bytes}/{name}`: `Content-Length: {bytes}` (any size, 2 GiB
///   included), then 64 KiB chunks as fast as the client reads, until `bytes` were sent
///   or the connection closed.
/// - `GET /endless/{name}`: a chunked body of 64 KiB chunks of `0x01` that never ends:
///   the writer stops only when the connection closes.
/// - `GET /drip/{name}`: a chunked body: `first`, then, once the test opens the gate
///   `name` (``StreamProbe/open(_:)``), `second`.
/// - `GET /trickle/{name}`: a chunked body of 1 KiB chunks of `0x03`, one every 10 ms,
///   that never ends: the writer stops only when the connection closes.
/// - `GET /moved`: `301 Moved Permanently` to `/json/user/1`, with the body
///   ``movedBody`` (`text/plain`).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public enum StreamingRoutes {
    /// The body of `GET /moved`.
    public static let movedBody = "moved to /json/user/1"
    /// The size of each chunk of `/declared` and `/endless`.
    public static let chunkSize = 64 * 1024

    /// Adds the routes to `router`, reporting to `probe`.
    public static func register(on router: Router<BasicRequestContext>, probe: StreamProbe) {
        router.get("declared/:bytes/:name") { _, context in
            let total = max(0, context.parameters.get("bytes", as: Int.self) ?? 0)
            let name = context.parameters.get("name") ?? ""
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: .init(contentLength: total) { writer in
                    defer { probe.writerEnded(name) }
                    let chunk = ByteBuffer(repeating: 0x02, count: chunkSize)
                    var sent = 0
                    while sent < total {
                        let count = min(chunkSize, total - sent)
                        try await writer.write(count == chunkSize ? chunk : ByteBuffer(repeating: 0x02, count: count))
                        sent += count
                    }
                    try await writer.finish(nil)
                })
        }
        router.get("endless/:name") { _, context in
            let name = context.parameters.get("name") ?? ""
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: .init { writer in
                    defer { probe.writerEnded(name) }
                    let chunk = ByteBuffer(repeating: 0x01, count: chunkSize)
                    while true {
                        try await writer.write(chunk)
                    }
                })
        }
        router.get("drip/:name") { _, context in
            let name = context.parameters.get("name") ?? ""
            return Response(
                // `nosniff`: Apple's URLSession may hold a small `text/plain` body back to
                // sniff its type until 512 bytes arrive; the tests need `first` at once.
                status: .ok, headers: [.contentType: "text/plain", .xContentTypeOptions: "nosniff"],
                body: .init { writer in
                    defer { probe.writerEnded(name) }
                    try await writer.write(ByteBuffer(string: "first"))
                    await probe.wait(for: name)
                    try Task.checkCancellation()
                    try await writer.write(ByteBuffer(string: "second"))
                    try await writer.finish(nil)
                })
        }
        router.get("trickle/:name") { _, context in
            let name = context.parameters.get("name") ?? ""
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: .init { writer in
                    defer { probe.writerEnded(name) }
                    let chunk = ByteBuffer(repeating: 0x03, count: 1024)
                    while true {
                        try await writer.write(chunk)
                        try await Deadline.sleep(for: .milliseconds(10))
                    }
                })
        }
        router.get("moved") { _, _ in
            Response(
                status: .movedPermanently,
                headers: [.location: "/json/user/1", .contentType: "text/plain"],
                body: .init(byteBuffer: ByteBuffer(string: movedBody)))
        }
    }
}

/// What the ``StreamingRoutes`` tell a test: which body writers ended, and gates the
/// test opens to let a route go on.
public final class StreamProbe: Sendable {
    private struct Gate {
        let stream: AsyncStream<Void>
        let continuation: AsyncStream<Void>.Continuation
    }

    private let gates = NIOLockedValueBox<[String: Gate]>([:])
    private let endedContinuation: AsyncStream<String>.Continuation
    /// The names of the routes whose body writer ended (finished, or failed because the
    /// connection closed), in the order they ended. Read it from one task at a time.
    public let endedWriters: AsyncStream<String>

    /// Creates a probe with every gate closed.
    public init() {
        (endedWriters, endedContinuation) = AsyncStream.makeStream(of: String.self)
    }

    deinit {
        endedContinuation.finish()
    }

    /// The name of the next body writer that ends, or `nil` when none ends within
    /// `limit` (the wait's timer is cancelled as soon as one does).
    public func nextEndedWriter(within limit: Duration) async -> String? {
        let ended = endedWriters
        return await withTaskGroup(of: String?.self) { group in
            group.addTask {
                var iterator = ended.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Deadline.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Opens the gate `name`: a route waiting on it goes on, and later waits return at once.
    public func open(_ name: String) {
        gate(name).continuation.finish()
    }

    /// Waits until the gate `name` is opened or the calling task is cancelled.
    func wait(for name: String) async {
        for await _ in gate(name).stream {}
    }

    /// Reports that the body writer of the route `name` ended.
    func writerEnded(_ name: String) {
        endedContinuation.yield(name)
    }

    private func gate(_ name: String) -> Gate {
        gates.withLockedValue { gates in
            if let gate = gates[name] { return gate }
            let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
            let gate = Gate(stream: stream, continuation: continuation)
            gates[name] = gate
            return gate
        }
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension TestServer {
    /// Runs `body` with a fresh server that also serves the ``StreamingRoutes``, and the
    /// probe those routes report to; the server is always shut down.
    public static func withStreamingRoutes<T>(_ body: (TestServer, StreamProbe) async throws -> T) async throws -> T {
        let probe = StreamProbe()
        return try await with(configure: { StreamingRoutes.register(on: $0, probe: probe) }) { server in
            try await body(server, probe)
        }
    }
}
