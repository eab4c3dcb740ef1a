import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import StrataTestServer

/// The server the pairs measure against: the test server (`StrataTestServer`: `/json/user/1`,
/// `/echo/**`, the streaming routes) plus `GET /bench/photos`, the 1 MB photo list,
/// `GET /sse/{count}`, the event stream of `--sse`, `GET /download/{mb}`, the file of
/// `--download`, and the demo API's `GET /users/1` and `POST /user/register` for the
/// `openapi` group.
///
/// By default it runs in a child process — this executable started again with the hidden
/// `--serve` flag, which prints the port and serves until its standard input closes — so
/// that the client's CPU time is the client's alone. `--in-process` runs it in this process.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum BenchServer {
    /// A running server: where it listens and how to stop it.
    struct Handle: Sendable {
        /// `http://127.0.0.1:PORT`.
        var baseURL: URL
        /// Where it runs, for the report: "separate process (pid N)" or "in process".
        var placement: String
        /// Stops the server and waits for it.
        var stop: @Sendable () async -> Void
    }

    /// The line `--serve` prints before the port.
    static let portPrefix = "strata-bench-serve port "

    /// Starts the server in this process.
    static func startInProcess() async throws -> Handle {
        let server = try await TestServer.start(configure: addRoutes)
        return Handle(baseURL: server.baseURL, placement: "in process") { await server.shutdown() }
    }

    /// Starts this executable with `--serve` and waits for the port it prints.
    static func startChild() throws -> Handle {
        guard let executable = Bundle.main.executableURL else { throw BenchError(description: "no executable path") }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--serve"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        guard let port = readPort(from: output.fileHandleForReading),
            let url = URL(string: "http://127.0.0.1:\(port)")
        else {
            process.terminate()
            throw BenchError(description: "the --serve child printed no port")
        }
        let pid = process.processIdentifier
        let writer = input.fileHandleForWriting
        return Handle(baseURL: url, placement: "separate process (pid \(pid))") {
            // Closing its standard input tells the child to shut down.
            try? writer.close()
            process.waitUntilExit()
        }
    }

    /// `--serve`: starts the server, prints ``portPrefix`` and the port, and serves until
    /// standard input closes (the parent closes it, or exits).
    static func serve() async -> Int32 {
        let server: TestServer
        do {
            server = try await TestServer.start(configure: addRoutes)
        } catch {
            printError("strata-bench --serve: the server did not start: \(error)")
            return 1
        }
        // Unbuffered, so that the parent reads it at once.
        FileHandle.standardOutput.write(Data((portPrefix + String(server.baseURL.port ?? 0) + "\n").utf8))
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // A blocking read belongs on a thread of its own, not the cooperative pool.
            Thread.detachNewThread {
                _ = FileHandle.standardInput.readDataToEndOfFile()
                continuation.resume()
            }
        }
        await server.shutdown()
        return 0
    }

    /// The events of `GET /sse/{count}` each write carries.
    static let eventsPerWrite = 256
    /// `Last-Event-ID`, which `GET /sse/{count}` resumes from.
    private static let lastEventID = HTTPField.Name("Last-Event-ID")!
    /// The size of each write of `GET /download/{mb}`: a MiB is 16 of them.
    static let downloadBlockSize = 64 * 1024
    /// The most MiB `GET /download/{mb}` sends (1 TiB), so that its length cannot overflow.
    static let downloadLimitMB = 1 << 20

    /// The bench's own routes, and the streaming routes (`/declared/{bytes}/{name}`).
    ///
    /// `GET /sse/{count}` is `text/event-stream`: the events `1...count` of
    /// ``StreamFormat/serverSentEvents``, ``eventsPerWrite`` a write, then the body ends.
    /// A request with `Last-Event-ID: N` gets the events after `N`, and `204 No Content`
    /// when `N` is `count` (all were read).
    ///
    /// `GET /download/{mb}` is `application/octet-stream` with `Content-Length: mb × 2²⁰`
    /// (`mb` at most ``downloadLimitMB``): the same ``downloadBlockSize`` block, written
    /// over and over as fast as the client reads; the body is never held whole.
    @Sendable static func addRoutes(_ router: Router<BasicRequestContext>) {
        StreamingRoutes.register(on: router, probe: StreamProbe())
        router.get("sse/:count") { request, context in
            let count = max(0, context.parameters.get("count", as: Int.self) ?? 0)
            let first = (request.headers[lastEventID].flatMap { Int($0) } ?? 0) + 1
            guard first <= count else { return Response(status: .noContent) }
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: .init { writer in
                    var bytes: [UInt8] = []
                    for batch in stride(from: first, through: count, by: eventsPerWrite) {
                        bytes.removeAll(keepingCapacity: true)
                        for number in batch...min(count, batch + eventsPerWrite - 1) {
                            StreamFormat.serverSentEvents.append(record: number, to: &bytes)
                        }
                        try await writer.write(ByteBuffer(bytes: bytes))
                    }
                    try await writer.finish(nil)
                })
        }
        // Made once: a write hands out a reference to the same storage.
        let block = ByteBuffer(bytes: (0..<downloadBlockSize).map { UInt8(truncatingIfNeeded: $0) })
        router.get("download/:mb") { _, context in
            let megabytes = min(max(0, context.parameters.get("mb", as: Int.self) ?? 0), downloadLimitMB)
            let total = megabytes * 1_048_576
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: .init(contentLength: total) { writer in
                    var sent = 0
                    while sent < total {
                        try await writer.write(block)
                        sent += block.readableBytes
                    }
                    try await writer.finish(nil)
                })
        }
        let photos = ByteBuffer(bytes: Payloads.photosJSON)
        router.get("bench/photos") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: photos))
        }
        let user = ByteBuffer(bytes: Payloads.userJSON)
        router.get("bench/user-cached") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "max-age=3600"],
                body: .init(byteBuffer: user))
        }
        // The demo API's operations the `openapi` group sends (openapi/strata-demo.yaml),
        // answered with the same user bytes as the other user routes.
        router.get("users/:id") { _, context in
            guard context.parameters.get("id", as: Int.self) == 1 else {
                return Response(
                    status: .notFound, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"error":"no such user"}"#)))
            }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: user))
        }
        router.post("user/register") { request, _ in
            // Read whole, as a server that decodes it would; then the user as registered.
            _ = try await request.body.collect(upTo: 64 * 1024)
            return Response(
                status: .created, headers: [.contentType: "application/json", .location: "/users/1"],
                body: .init(byteBuffer: user))
        }
    }

    /// Reads lines from `handle` until one carries the port.
    private static func readPort(from handle: FileHandle) -> Int? {
        var buffered = Data()
        while true {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { return nil }
            buffered.append(chunk)
            // Only whole lines: the last piece may still be arriving.
            let lines = String(decoding: buffered, as: UTF8.self).split(
                separator: "\n", omittingEmptySubsequences: false)
            for line in lines.dropLast() where line.hasPrefix(portPrefix) {
                return Int(line.dropFirst(portPrefix.count))
            }
        }
    }
}
