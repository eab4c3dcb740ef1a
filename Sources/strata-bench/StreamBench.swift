import AsyncHTTPClient
import Foundation
import OpenAPIRuntime
import Strata
import StrataAsyncHTTPClient
import StrataURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `strata-bench --sse`: the stream parsers, in three parts.
///
/// 1. Parse throughput: Strata's `serverSentEvents()` and swift-openapi-runtime's
///    `asDecodedServerSentEvents()` over the same 100 MB event stream in memory, cut into
///    the same 64 KiB chunks, three runs each, alternately; then Strata's `lines()`,
///    `jsonLines(of:)` and `jsonSequence(of:)` over 100 MB of the same payloads.
/// 2. End to end over loopback: `Networker.events` over each transport reading
///    ``SSEOptions/events`` events from the bench server's `GET /sse/{count}`.
/// 3. Memory: the peak RSS growth while 1 GiB, generated chunk by chunk, goes through
///    each parser.
///
/// The memory part runs first, while the process is small: memory that earlier parts
/// freed would be reused without growing RSS and hide what a parser holds.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum StreamBench {
    /// Bytes in a MB, as the rest of the bench counts (2²⁰).
    static let megabyte = 1_048_576.0
    /// The size of every chunk the parsers are fed.
    static let chunkSize = 64 * 1024
    /// Runs of each parser in the throughput part.
    static let runs = 3
    /// The peak RSS growth the memory part must stay under, in MB.
    static let memoryTargetMB = 32.0

    /// Runs the mode; returns the exit status: 1 when a count does not match, a stream
    /// fails or the server does not start.
    static func run(_ options: SSEOptions) async -> Int32 {
        let throughputBytes = options.quick ? 10 * 1_048_576 : 100 * 1_048_576
        let memoryBytes = options.quick ? 64 * 1_048_576 : 1 << 30
        var report = SSEReport(
            date: ISO8601DateFormatter().string(from: Date()),
            machine: "\(ProcessInfo.processInfo.activeProcessorCount) cores, "
                + ProcessInfo.processInfo.operatingSystemVersionString,
            server: "none")
        print(
            "strata-bench --sse: \(formatMB(throughputBytes)) parsed per run, \(options.events) events over loopback, "
                + "\(formatMB(memoryBytes)) per parser for memory; chunks of \(chunkSize / 1024) KiB; MB = 2^20 bytes")
        do {
            if options.parts.contains(.memory) { report.memory = try await memory(bytes: memoryBytes) }
            if options.parts.contains(.parse) { report.parse = try await throughput(bytes: throughputBytes) }
            if options.parts.contains(.loopback) {
                (report.server, report.loopback) = try await loopback(events: options.events, options.inProcess)
            }
        } catch {
            printError("strata-bench --sse: \(error)")
            return 1
        }
        return printReport(report.table, report, jsonPath: options.jsonPath, mode: "--sse")
    }

    // MARK: Parse throughput

    /// Times each parser ``runs`` times over `bytes` of input held in memory, the two
    /// event-stream parsers alternately, and checks every run's counts.
    static func throughput(bytes: Int) async throws -> [ParseResult] {
        print("-- parse throughput: \(formatMB(bytes)) in memory, \(runs) runs per parser")
        var results: [ParseResult] = []
        do {
            let input = try InMemoryInput(.serverSentEvents, bytes: bytes, withSlices: true)
            var strata = ParseResult(parser: "Strata serverSentEvents()", input: input)
            var openAPI = ParseResult(parser: "OpenAPIRuntime asDecodedServerSentEvents()", input: input)
            for run in 0..<runs {
                // The order alternates too, so that neither always runs on a warmer heap.
                for first in [run % 2 == 0, run % 2 != 0] {
                    if first {
                        strata.add(try await time(input) { try await strataEvents(input) })
                    } else {
                        openAPI.add(try await time(input) { try await openAPIEvents(input) })
                    }
                }
            }
            results += [strata, openAPI]
        }
        do {
            let input = try InMemoryInput(.lines, bytes: bytes, withSlices: false)
            var lines = ParseResult(parser: "Strata lines()", input: input)
            var jsonLines = ParseResult(parser: "Strata jsonLines(of: ChatChunk.self)", input: input)
            var plain = ParseResult(parser: "(reference: JSONDecoder alone, per payload)", input: input)
            for _ in 0..<runs {
                lines.add(try await time(input) { try await strataLines(input) })
                jsonLines.add(try await time(input) { try await strataJSONLines(input) })
                plain.add(try await time(input) { plainDecodes(input) })
            }
            results += [lines, jsonLines, plain]
        }
        do {
            let input = try InMemoryInput(.jsonSequence, bytes: bytes, withSlices: false)
            var sequence = ParseResult(parser: "Strata jsonSequence(of: ChatChunk.self)", input: input)
            for _ in 0..<runs {
                sequence.add(try await time(input) { try await strataJSONSequence(input) })
            }
            results.append(sequence)
        }
        return results
    }

    /// Runs `parse` once over `input`, checks what it counted, prints and returns the
    /// time.
    private static func time(_ input: InMemoryInput, _ parse: () async throws -> Tally) async throws -> Duration {
        let start = ContinuousClock.now
        let tally = try await parse()
        let elapsed = start.duration(to: .now)
        try tally.check(against: input.expected)
        print(
            "  \(tally.name): "
                + String(
                    format: "%.2f s, %.1f MB/s", elapsed.seconds,
                    Double(input.expected.bytes) / megabyte / elapsed.seconds))
        return elapsed
    }

    /// Foundation's `JSONDecoder` alone, decoding the payloads of `input` one by one from
    /// `Data` already cut out: what decoding costs without a stream around it.
    private static func plainDecodes(_ input: InMemoryInput) -> Tally {
        let payloads = (0..<StreamFormat.tokens.count).map { Data(StreamFormat.payload($0)) }
        let decoder = JSONDecoder()
        var tally = Tally(name: "JSONDecoder alone")
        for number in stride(from: 1, through: input.expected.records, by: 1) {
            guard let chunk = try? decoder.decode(ChatChunk.self, from: payloads[number % payloads.count]) else {
                continue  // not counted: the check reports it
            }
            tally.add(chunk: chunk)
        }
        return tally
    }

    /// Strata's event parser over `input`'s `Data` chunks.
    private static func strataEvents(_ input: InMemoryInput) async throws -> Tally {
        let chunks = input.chunks
        var tally = Tally(name: "Strata serverSentEvents()")
        let body = MessageBody(length: Int64(input.expected.bytes)) { InMemoryChunks(chunks: chunks) }
        for try await event in body.serverSentEvents() {
            tally.add(event.data.utf8.count)
        }
        return tally
    }

    /// swift-openapi-runtime's event parser over `input`'s `ArraySlice<UInt8>` chunks (the
    /// same bytes, cut at the same places). It also yields a data-less event for the blank
    /// line after a comment, which the standard does not dispatch: those are not counted.
    private static func openAPIEvents(_ input: InMemoryInput) async throws -> Tally {
        let body = HTTPBody(
            InMemoryChunks(chunks: input.slices), length: .known(Int64(input.expected.bytes)),
            iterationBehavior: .multiple)
        var tally = Tally(name: "OpenAPIRuntime asDecodedServerSentEvents()")
        for try await event in body.asDecodedServerSentEvents() {
            guard let data = event.data else { continue }
            tally.add(data.utf8.count)
        }
        return tally
    }

    /// Strata's line splitter over `input`.
    private static func strataLines(_ input: InMemoryInput) async throws -> Tally {
        let chunks = input.chunks
        var tally = Tally(name: "Strata lines()")
        for try await line in MessageBody(length: nil, makeChunks: { InMemoryChunks(chunks: chunks) }).lines() {
            tally.add(line.utf8.count)
        }
        return tally
    }

    /// Strata's JSON Lines over `input`, each line decoded into a ``ChatChunk``.
    private static func strataJSONLines(_ input: InMemoryInput) async throws -> Tally {
        let chunks = input.chunks
        var tally = Tally(name: "Strata jsonLines(of:)")
        let body = MessageBody(length: nil) { InMemoryChunks(chunks: chunks) }
        for try await chunk in body.jsonLines(of: ChatChunk.self) {
            tally.add(chunk: chunk)
        }
        return tally
    }

    /// Strata's JSON text sequence over `input`, each record decoded into a ``ChatChunk``.
    private static func strataJSONSequence(_ input: InMemoryInput) async throws -> Tally {
        let chunks = input.chunks
        var tally = Tally(name: "Strata jsonSequence(of:)")
        let body = MessageBody(length: nil) { InMemoryChunks(chunks: chunks) }
        for try await chunk in body.jsonSequence(of: ChatChunk.self) {
            tally.add(chunk: chunk)
        }
        return tally
    }

    // MARK: End to end

    /// Starts the bench server (in a child process unless `inProcess`), runs
    /// ``loopback(events:baseURL:)`` against it and stops it; returns where it ran and
    /// the results.
    static func loopback(events: Int, _ inProcess: Bool) async throws -> (String, [LoopbackResult]) {
        let server = inProcess ? try await BenchServer.startInProcess() : try BenchServer.startChild()
        let outcome: Result<[LoopbackResult], any Error>
        do {
            outcome = .success(try await loopback(events: events, baseURL: server.baseURL))
        } catch {
            outcome = .failure(error)
        }
        await server.stop()
        return ("\(server.placement), \(server.baseURL.absoluteString)", try outcome.get())
    }

    /// Reads `events` events from the bench server's `/sse/{count}` through
    /// `Networker.events` over each transport, ``runs`` times each, alternately.
    ///
    /// The URLSession transport gets a response buffer of twice the stream: on loopback
    /// the server sends faster than the events are parsed, and `FoundationNetworking`
    /// cannot pause a transfer, so with the default 32 MiB the transport stops the body
    /// (`URLSessionTransportError.responseBufferFull`) in some runs and the stream ends
    /// short. AsyncHTTPClient applies back-pressure and keeps its defaults.
    static func loopback(events: Int, baseURL: URL) async throws -> [LoopbackResult] {
        let expected = StreamFormat.serverSentEvents.expected(records: events)
        let bufferLimit = max(URLSessionTransport.defaultResponseBufferLimit, 2 * expected.bytes)
        print(
            "-- end to end over loopback: \(events) events, \(formatMB(expected.bytes)) of event stream; "
                + "URLSessionTransport's responseBufferLimit \(formatMB(bufferLimit))")
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .strataDefault)
        let transports: [(name: String, networker: Networker)] = [
            (
                "AsyncHTTPClientTransport",
                Networker(
                    transport: AsyncHTTPClientTransport(client: client),
                    configuration: StrataBench.networkerConfiguration)
            ),
            (
                "URLSessionTransport",
                Networker(
                    transport: URLSessionTransport(responseBufferLimit: bufferLimit),
                    configuration: StrataBench.networkerConfiguration)
            ),
        ]
        var results = transports.map { LoopbackResult(transport: $0.name, events: events, bytes: expected.bytes) }
        let outcome: Result<Void, any Error>
        do {
            // A short stream first on each: the connection, and a check of the route.
            for transport in transports {
                _ = try await readEvents(1000, from: baseURL, through: transport.networker)
            }
            for run in 0..<runs {
                for offset in 0..<transports.count {
                    let index = (run + offset) % transports.count
                    let seconds = try await readEvents(events, from: baseURL, through: transports[index].networker)
                    results[index].seconds.append(seconds)
                    print(
                        String(
                            format: "  %@ run %d: %.2f s, %.0f events/s", transports[index].name, run + 1, seconds,
                            Double(events) / seconds))
                }
            }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        try? await client.shutdown()
        try outcome.get()
        return results
    }

    /// Reads the events of `/sse/{count}` with no reconnection until the stream ends;
    /// checks that exactly `count` arrived, the last with the id `count`; returns the
    /// seconds it took.
    static func readEvents(_ count: Int, from baseURL: URL, through networker: Networker) async throws -> Double {
        let url = baseURL.appendingPathComponent("sse/\(count)")
        let stream = networker.events(
            RequestDescription(route: url), reconnection: ReconnectionPolicy(maximumReconnections: 0))
        var tally = Tally(name: "Networker.events")
        var lastID: String?
        let start = ContinuousClock.now
        do {
            for try await event in stream {
                tally.add(event.data.utf8.count)
                lastID = event.id
            }
            throw BenchError(description: "the event stream ended without an error")
        } catch let error as StrataError where error.kind == .eventStream {
            // The end: no reconnection left (or a 204 for a stream already read whole).
        }
        let seconds = start.duration(to: .now).seconds
        try tally.check(against: StreamFormat.serverSentEvents.expected(records: count))
        guard lastID == String(count) else {
            throw BenchError(description: "the last event's id is \(lastID ?? "none"), not \(count)")
        }
        return seconds
    }

    // MARK: Memory

    /// Sends `bytes` of each format, generated chunk by chunk, through its parser while
    /// sampling RSS; returns the peak growth over the value before each parser started.
    static func memory(bytes: Int) async throws -> [MemoryResult] {
        print("-- peak RSS growth: \(formatMB(bytes)) generated chunk by chunk through each parser")
        var results: [MemoryResult] = []
        for parser in MemoryCase.allCases {
            let expected = parser.format.expected(bytes: bytes)
            let body = MessageBody(length: nil) { GeneratedChunks(format: parser.format, bytes: bytes) }
            returnFreedMemory()
            var sampler = ResidentSampler(before: ProcessStats.residentBytes())
            let start = ContinuousClock.now
            let tally = try await parser.read(body, sampler: &sampler)
            let seconds = start.duration(to: .now).seconds
            try tally.check(against: expected)
            let result = MemoryResult(
                parser: parser.rawValue, bytes: expected.bytes, records: tally.records, seconds: seconds,
                peakGrowthMB: sampler.growth.map { Double($0) / megabyte })
            print(
                "  \(parser.rawValue): \(tally.records) records in "
                    + String(format: "%.1f s, peak RSS growth ", seconds)
                    + (result.peakGrowthMB.map { String(format: "%+.1f MB", $0) } ?? "n/a"))
            results.append(result)
        }
        return results
    }

    /// Gives the memory that earlier work freed back to the system (glibc's
    /// `malloc_trim`, which Swift's Glibc module does not import), so that a parser's
    /// growth shows in RSS instead of reusing it.
    private static func returnFreedMemory() {
        #if canImport(Glibc)
            typealias Trim = @convention(c) (Int) -> Int32
            guard let symbol = dlsym(nil, "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }
}

/// A parser of the memory part, reading its own format.
enum MemoryCase: String, CaseIterable, Sendable {
    /// `serverSentEvents()` over the event stream.
    case serverSentEvents = "serverSentEvents()"
    /// `lines()` over one payload a line.
    case lines = "lines()"
    /// `jsonLines(of:)` over one payload a line, each decoded.
    case jsonLines = "jsonLines(of: ChatChunk.self)"
    /// `jsonSequence(of:)` over the JSON text sequence, each record decoded.
    case jsonSequence = "jsonSequence(of: ChatChunk.self)"

    /// What the parser reads.
    var format: StreamFormat {
        switch self {
        case .serverSentEvents: .serverSentEvents
        case .lines, .jsonLines: .lines
        case .jsonSequence: .jsonSequence
        }
    }

    /// Reads `body` to its end with the parser, sampling RSS with `sampler` as it goes.
    func read(_ body: MessageBody, sampler: inout ResidentSampler) async throws -> Tally {
        var tally = Tally(name: rawValue)
        switch self {
        case .serverSentEvents:
            for try await event in body.serverSentEvents() {
                tally.add(event.data.utf8.count)
                sampler.sample(every: tally.records)
            }
        case .lines:
            for try await line in body.lines() {
                tally.add(line.utf8.count)
                sampler.sample(every: tally.records)
            }
        case .jsonLines:
            for try await chunk in body.jsonLines(of: ChatChunk.self) {
                tally.add(chunk: chunk)
                sampler.sample(every: tally.records)
            }
        case .jsonSequence:
            for try await chunk in body.jsonSequence(of: ChatChunk.self) {
                tally.add(chunk: chunk)
                sampler.sample(every: tally.records)
            }
        }
        return tally
    }
}

/// The settings of `--sse`.
struct SSEOptions: Sendable {
    /// A part of the mode, for `--only`.
    enum Part: String, CaseIterable, Sendable {
        /// The peak RSS growth for 1 GiB through each parser.
        case memory
        /// The parsers' throughput in memory.
        case parse
        /// `Networker.events` over both transports.
        case loopback
    }

    /// The parts that run (`--only`; default all).
    var parts = Set(Part.allCases)
    /// Events per stream in the loopback part.
    var events = 1_000_000
    /// `--quick`: 10 MB per throughput run and 64 MB per memory run, for a smoke run.
    var quick = false
    /// Whether the server runs in this process rather than in a child process.
    var inProcess = false
    /// Where `--json` writes the results, if anywhere.
    var jsonPath: String?
}

// MARK: Inputs

/// What the bench streams: LLM-style chat-completion chunks, as server-sent events or one
/// JSON value a line or a JSON text sequence.
///
/// Record `n` (from 1) carries the payload
/// `{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":"TOKEN"}}]}` with one of
/// ``tokens``. As an event it is `data: PAYLOAD` and a blank line, after an `id: n` line
/// when `n` is a multiple of 10, and followed by a `: keep-alive` comment block when `n` is
/// a multiple of 50.
enum StreamFormat: Sendable {
    /// `text/event-stream`.
    case serverSentEvents
    /// One payload a line, LF-terminated (the input of `lines()` and `jsonLines(of:)`).
    case lines
    /// RFC 7464: RS, the payload, LF.
    case jsonSequence

    /// The content of the records' deltas, in turn.
    static let tokens = ["Hello", ",", " world", " the", " quick", " brown", " fox", " café", "!", "\\n"]
    /// Each token's payload, as UTF-8.
    private static let payloads: [[UInt8]] = tokens.map {
        Array(#"{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":"\#($0)"}}]}"#.utf8)
    }
    private static let keepAlive = Array(": keep-alive\n\n".utf8)

    /// The payload of record `number`.
    static func payload(_ number: Int) -> [UInt8] {
        payloads[number % payloads.count]
    }

    /// Appends record `number` (from 1) to `bytes`.
    func append(record number: Int, to bytes: inout [UInt8]) {
        switch self {
        case .serverSentEvents:
            if number % 10 == 0 {
                bytes.append(contentsOf: "id: ".utf8)
                bytes.append(contentsOf: String(number).utf8)
                bytes.append(0x0A)
            }
            bytes.append(contentsOf: "data: ".utf8)
            bytes.append(contentsOf: Self.payload(number))
            bytes.append(contentsOf: [0x0A, 0x0A])
            if number % 50 == 0 { bytes.append(contentsOf: Self.keepAlive) }
        case .lines:
            bytes.append(contentsOf: Self.payload(number))
            bytes.append(0x0A)
        case .jsonSequence:
            bytes.append(0x1E)
            bytes.append(contentsOf: Self.payload(number))
            bytes.append(0x0A)
        }
    }

    /// The size of record `number`, without writing it.
    func size(record number: Int) -> Int {
        let payload = Self.payload(number).count
        switch self {
        case .serverSentEvents:
            let id = number % 10 == 0 ? 5 + String(number).utf8.count : 0
            return id + 6 + payload + 2 + (number % 50 == 0 ? Self.keepAlive.count : 0)
        case .lines: return payload + 1
        case .jsonSequence: return payload + 2
        }
    }

    /// What a stream of whole records holds once it has at least `bytes` bytes (the
    /// stream ``GeneratedChunks`` makes).
    func expected(bytes: Int) -> Expected {
        var expected = Expected()
        while expected.bytes < bytes { expected.add(record: expected.records + 1, of: self) }
        return expected
    }

    /// What a stream of records 1 to `records` holds.
    func expected(records: Int) -> Expected {
        var expected = Expected()
        for number in stride(from: 1, through: records, by: 1) { expected.add(record: number, of: self) }
        return expected
    }
}

/// What a generated stream holds, to check what a parser read.
struct Expected: Sendable {
    /// Records (events, lines).
    var records = 0
    /// The stream's bytes.
    var bytes = 0
    /// The payloads' bytes: what the events' `data` or the lines hold.
    var payloadBytes = 0
    /// The UTF-8 bytes of the deltas' contents, once decoded.
    var contentBytes = 0

    /// Counts record `number` of `format`.
    mutating func add(record number: Int, of format: StreamFormat) {
        records += 1
        bytes += format.size(record: number)
        payloadBytes += StreamFormat.payload(number).count
        contentBytes += ChatChunk.contentBytes[number % ChatChunk.contentBytes.count]
    }
}

/// What a parser read: its records and their text or content bytes.
struct Tally: Sendable {
    /// The parser, for the messages.
    var name: String
    var records = 0
    /// The bytes of the events' `data` or the lines' text, when counted.
    var payloadBytes = 0
    /// The bytes of the decoded contents, when counted.
    var contentBytes = 0

    /// Creates an empty tally for the parser `name`.
    init(name: String) {
        self.name = name
    }

    /// Counts a record whose text has `bytes` UTF-8 bytes.
    mutating func add(_ bytes: Int) {
        records += 1
        payloadBytes += bytes
    }

    /// Counts a decoded record.
    mutating func add(chunk: ChatChunk) {
        records += 1
        contentBytes += chunk.choices.first?.delta.content.utf8.count ?? 0
    }

    /// Throws when the counts differ from `expected` (the byte count that was not
    /// counted, zero, aside).
    func check(against expected: Expected) throws {
        let payloadOK = payloadBytes == 0 || payloadBytes == expected.payloadBytes
        let contentOK = contentBytes == 0 || contentBytes == expected.contentBytes
        guard records == expected.records, payloadOK, contentOK else {
            throw BenchError(
                description: "\(name) read \(records) records (\(payloadBytes) text bytes, \(contentBytes) content "
                    + "bytes), expected \(expected.records) (\(expected.payloadBytes), \(expected.contentBytes))")
        }
    }
}

/// A chat-completion chunk, the model of every record's payload.
struct ChatChunk: Decodable, Sendable {
    /// One choice of the chunk.
    struct Choice: Decodable, Sendable {
        var index: Int
        var delta: Delta
    }

    /// What a choice adds to the message.
    struct Delta: Decodable, Sendable {
        var content: String
    }

    var id: String
    var choices: [Choice]

    /// The UTF-8 size of each token once decoded (`\\n` escapes one byte), in the order
    /// of ``StreamFormat/tokens``.
    static let contentBytes: [Int] = StreamFormat.tokens.map {
        $0 == "\\n" ? 1 : $0.utf8.count
    }
}

/// A stream of one format, generated in memory and cut into 64 KiB chunks, held whole: the
/// same bytes as `Data` chunks for Strata and, when asked, as `ArraySlice<UInt8>` chunks
/// for swift-openapi-runtime.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
struct InMemoryInput: Sendable {
    var chunks: [Data]
    var slices: [ArraySlice<UInt8>]
    /// What the stream holds.
    var expected: Expected

    /// Generates at least `bytes` bytes of `format`, whole records.
    /// - Throws: ``BenchError`` when the chunks do not add up to what the format says.
    init(_ format: StreamFormat, bytes: Int, withSlices: Bool) throws {
        expected = format.expected(bytes: bytes)
        var generator = GeneratedChunks.Generator(format: format, bytes: bytes)
        chunks = []
        while let chunk = generator.next() { chunks.append(chunk) }
        slices = withSlices ? chunks.map { ArraySlice(Array($0)) } : []
        let total = chunks.reduce(0) { $0 + $1.count }
        guard total == expected.bytes, generator.records == expected.records else {
            throw BenchError(
                description: "generated \(total) bytes, \(generator.records) records; expected \(expected)")
        }
    }
}

/// Chunks held in memory, as an async sequence.
struct InMemoryChunks<Chunk: Sendable>: AsyncSequence, Sendable {
    /// The chunks, in order.
    var chunks: [Chunk]

    /// Hands out the chunks in order.
    struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: [Chunk]
        var index = 0

        /// The next chunk, or `nil` after the last.
        mutating func next() async -> Chunk? {
            guard index < chunks.count else { return nil }
            defer { index += 1 }
            return chunks[index]
        }
    }

    /// Starts at the first chunk.
    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: chunks)
    }
}

/// A stream of one format generated as it is read, in 64 KiB chunks (the last one
/// shorter), of whole records until it holds at least `bytes` bytes; never held whole.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
struct GeneratedChunks: AsyncSequence, Sendable {
    /// What the records look like.
    var format: StreamFormat
    /// The least the stream holds.
    var bytes: Int

    /// Makes the chunks one at a time.
    struct Generator: Sendable {
        let format: StreamFormat
        let bytes: Int
        /// Records written so far.
        private(set) var records = 0
        /// Bytes written so far (handed out or waiting in ``pending``).
        private var written = 0
        /// Bytes written and not yet handed out: less than a chunk and a record.
        private var pending: [UInt8] = []

        /// A generator at the start of the stream.
        init(format: StreamFormat, bytes: Int) {
            self.format = format
            self.bytes = bytes
            pending.reserveCapacity(StreamBench.chunkSize + 1024)
        }

        /// The next chunk, or `nil` at the end.
        mutating func next() -> Data? {
            while pending.count < StreamBench.chunkSize, written < bytes {
                let before = pending.count
                records += 1
                format.append(record: records, to: &pending)
                written += pending.count - before
            }
            guard !pending.isEmpty else { return nil }
            let count = Swift.min(StreamBench.chunkSize, pending.count)
            let chunk = Data(pending[..<count])
            pending.removeFirst(count)
            return chunk
        }
    }

    /// Generates the chunks as they are asked for.
    struct AsyncIterator: AsyncIteratorProtocol {
        var generator: Generator

        /// The next chunk, or `nil` at the end.
        mutating func next() async -> Data? {
            generator.next()
        }
    }

    /// Starts a new stream.
    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(generator: Generator(format: format, bytes: bytes))
    }
}

/// The highest RSS seen while a parser runs.
struct ResidentSampler {
    /// RSS before the parser started.
    let before: Int?
    private var peak: Int?

    /// A sampler whose baseline is `before`.
    init(before: Int?) {
        self.before = before
        self.peak = before
    }

    /// Samples RSS when `records` is a multiple of 4096 (a few hundred kilobytes of input).
    mutating func sample(every records: Int) {
        guard records & 4095 == 0, let rss = ProcessStats.residentBytes() else { return }
        peak = max(peak ?? rss, rss)
    }

    /// The peak over the baseline, in bytes; `nil` where RSS is not available.
    var growth: Int? {
        guard let before, let peak else { return nil }
        return peak - before
    }
}

// MARK: Results

/// The results of `--sse`, printed as a table and written by `--json`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
struct SSEReport: Codable, Sendable {
    var date: String
    var machine: String
    /// Where the loopback part's server ran.
    var server: String
    var parse: [ParseResult] = []
    var loopback: [LoopbackResult] = []
    var memory: [MemoryResult] = []

    /// Strata's event parser's throughput over swift-openapi-runtime's: best over best and
    /// median over median; `nil` before both ran.
    var ratio: (best: Double, median: Double)? {
        guard parse.count >= 2, parse[1].bestMBps > 0, parse[1].medianMBps > 0 else { return nil }
        return (parse[0].bestMBps / parse[1].bestMBps, parse[0].medianMBps / parse[1].medianMBps)
    }

    /// The parts that ran, as aligned tables.
    var table: String {
        var lines: [String] = []
        if !parse.isEmpty {
            lines += ["", "parse throughput (in memory, \(StreamBench.chunkSize / 1024) KiB chunks)"]
            lines.append(row("parser", "MB", "records", "best MB/s", "median MB/s", "worst MB/s"))
        }
        for result in parse {
            lines.append(
                row(
                    result.parser, String(format: "%.1f", Double(result.bytes) / StreamBench.megabyte),
                    String(result.records), String(format: "%.1f", result.bestMBps),
                    String(format: "%.1f", result.medianMBps), String(format: "%.1f", result.worstMBps)))
        }
        if let ratio {
            lines.append(
                String(format: "  ratio Strata/openapi-runtime: best %.2fx, median %.2fx", ratio.best, ratio.median))
        }
        if !loopback.isEmpty {
            lines += ["", "end to end over loopback, Networker.events (server: \(server))"]
            lines.append(row("transport", "MB", "events", "best ev/s", "median ev/s", "best MB/s", "median MB/s"))
        }
        for result in loopback {
            lines.append(
                row(
                    result.transport, String(format: "%.1f", Double(result.bytes) / StreamBench.megabyte),
                    String(result.events), String(format: "%.0f", result.bestEventsPerSecond),
                    String(format: "%.0f", result.medianEventsPerSecond), String(format: "%.1f", result.bestMBps),
                    String(format: "%.1f", result.medianMBps)))
        }
        if !memory.isEmpty {
            lines += ["", "peak RSS growth (target < \(Int(StreamBench.memoryTargetMB)) MB)"]
            lines.append(row("parser", "MB", "records", "seconds", "growth MB", "target"))
        }
        for result in memory {
            let met = result.peakGrowthMB.map { $0 < StreamBench.memoryTargetMB ? "met" : "NOT MET" } ?? "n/a"
            lines.append(
                row(
                    result.parser, String(format: "%.1f", Double(result.bytes) / StreamBench.megabyte),
                    String(result.records), String(format: "%.1f", result.seconds),
                    result.peakGrowthMB.map { String(format: "%+.1f", $0) } ?? "n/a", met))
        }
        return lines.joined(separator: "\n")
    }

    private func row(_ first: String, _ rest: String...) -> String { tableRow(first, rest) }
}

/// One parser's throughput runs.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
struct ParseResult: Codable, Sendable {
    var parser: String
    /// The input's size.
    var bytes: Int
    /// The records every run read.
    var records: Int
    /// Each run's throughput, in MB (2²⁰ bytes) per second.
    var runsMBps: [Double] = []

    /// A result with no run yet, for `input`.
    init(parser: String, input: InMemoryInput) {
        self.parser = parser
        self.bytes = input.expected.bytes
        self.records = input.expected.records
    }

    /// Adds a run that took `elapsed`.
    mutating func add(_ elapsed: Duration) {
        runsMBps.append(Double(bytes) / StreamBench.megabyte / elapsed.seconds)
    }

    /// The fastest run's throughput.
    var bestMBps: Double { runsMBps.max() ?? 0 }
    /// The median run's throughput.
    var medianMBps: Double { median(runsMBps) }
    /// The slowest run's throughput.
    var worstMBps: Double { runsMBps.min() ?? 0 }
}

/// One transport's loopback runs.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
struct LoopbackResult: Codable, Sendable {
    var transport: String
    /// Events per stream.
    var events: Int
    /// The event stream's size.
    var bytes: Int
    /// Each run's duration, from the request to the end of the stream.
    var seconds: [Double] = []

    /// The fastest run's events per second.
    var bestEventsPerSecond: Double { Double(events) / (seconds.min() ?? .infinity) }
    /// The median run's events per second.
    var medianEventsPerSecond: Double { Double(events) / median(seconds) }
    /// The fastest run's MB (2²⁰ bytes) per second.
    var bestMBps: Double { Double(bytes) / StreamBench.megabyte / (seconds.min() ?? .infinity) }
    /// The median run's MB per second.
    var medianMBps: Double { Double(bytes) / StreamBench.megabyte / median(seconds) }
}

/// One parser's memory run.
struct MemoryResult: Codable, Sendable {
    var parser: String
    /// The bytes that went through.
    var bytes: Int
    var records: Int
    var seconds: Double
    /// The most RSS grew over its value before the run, in MB (2²⁰ bytes); `nil` where
    /// RSS is not available.
    var peakGrowthMB: Double?
}
