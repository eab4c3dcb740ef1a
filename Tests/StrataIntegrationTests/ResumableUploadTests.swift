import Crypto
import Foundation
import HTTPTypes
import Strata
import StrataDemoServer
import StrataTestServer
import StrataTestSupport
import Testing

/// ``Networker/upload(_:from:stateFolder:progress:)`` against swift-nio-extras'
/// `NIOResumableUpload` server, cut after a number of bytes: the stored file's SHA-256 is
/// the source's, on both transports, within a call and across calls.
@Suite("Resumable uploads", .runsAlone)
struct ResumableUploadTests {
    /// A folder with a file of `size` pattern bytes and a state folder, removed after `body`.
    static func withFile<T>(size: Int, _ body: (_ file: URL, _ states: URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-resumable-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("clip.bin")
        try pattern(size, seed: 7).write(to: file)
        return try await body(file, folder.appendingPathComponent("states", isDirectory: true))
    }

    static func pattern(_ count: Int, seed: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* Int(seed) &+ $0 >> 8) })
    }

    static func sha256(_ file: URL) throws -> String {
        sha256(try Data(contentsOf: file))
    }

    static func sha256(_ bytes: Data) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    static func endpoint(_ server: URL, path: String = "uploads/clip.bin") -> Endpoint<String> {
        Endpoint(RequestDescription(route: server.appendingPathComponent(path).absoluteString, method: .post)) {
            response, _ in String(decoding: response.body, as: UTF8.self)
        }
    }

    /// A client that continues up to `attempts - 1` times, without waiting.
    static func networker(_ transport: any Transport, attempts: Int = 10) -> Networker {
        Networker(
            transport: transport,
            middleware: attempts > 1
                ? [RetryMiddleware(policy: RetryPolicy(maxAttempts: attempts, maxBackoff: .milliseconds(1)))] : [])
    }

    /// The transports the protocol's tests run on. On Linux, URLSession (FoundationNetworking
    /// over libcurl) takes the server's `104` for the creation's final response and, when a
    /// reused connection dies under a `PATCH`, sends the `PATCH` again on a fresh one (the
    /// server takes the second as a conflict and ends the upload):
    /// ``twentyMegabytesInFiveCutsAreStoredWhole(_:)`` records that as a known issue.
    static let protocolTransports: [TransportKind] =
        Platform.isLinuxFoundation ? [.asyncHTTPClient] : TransportKind.allCases

    /// The size in the server's receipt (a `ResumableUploadServer.Stored` in JSON).
    static func storedSize(_ receipt: String) -> Int? {
        try? JSONDecoder().decode(ResumableUploadServer.Stored.self, from: Data(receipt.utf8)).size
    }

    static func stateFiles(_ folder: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    @Test(arguments: TransportKind.allCases)
    func twentyMegabytesInFiveCutsAreStoredWhole(_ kind: TransportKind) async throws {
        try await withKnownIssue(
            "URLSession on Linux: the 104 taken for the final response, a cut PATCH sent twice",
            isIntermittent: false
        ) {
            try await Self.uploadTwentyMegabytesInFiveCuts(kind)
        } when: {
            kind == .urlSession && Platform.isLinuxFoundation
        }
    }

    static func uploadTwentyMegabytesInFiveCuts(_ kind: TransportKind) async throws {
        let size = 20 << 20
        try await Self.withFile(size: size) { file, states in
            try await ResumableUploadServer.with(cuts: .inOrder(Array(repeating: 3 << 20, count: 5))) { server in
                try await kind.with { transport in
                    let reported = Locked<[TransferProgress]>([])
                    let result = try await Self.networker(transport).upload(
                        Self.endpoint(server.baseURL), from: file, stateFolder: states
                    ) { progress in reported.withLock { $0.append(progress) } }
                    #expect(Self.storedSize(result.response.value) == size)
                    #expect(result.response.head.status.code == 201)
                    #expect(result.resumptions == 5)
                    #expect(result.resumedFrom == 0)
                    #expect(result.resource?.absoluteString.hasPrefix(server.baseURL.absoluteString) == true)
                    #expect(
                        server.stored == [.init(path: "/uploads/clip.bin", size: size, sha256: try Self.sha256(file))])
                    let values = reported.withLock { $0 }
                    #expect(values.first == TransferProgress(completed: 0, total: Int64(size)))
                    #expect(values.last == TransferProgress(completed: Int64(size), total: Int64(size)))
                    #expect(zip(values, values.dropFirst()).allSatisfy { $0.completed < $1.completed })
                    #expect(Self.stateFiles(states) == [])
                }
            }
        }
    }

    /// A first call without retries ends at the cut and leaves its state; the next call
    /// (as after a restart: another client) continues from the server's offset.
    @Test(arguments: Self.protocolTransports)
    func aLaterCallContinuesFromTheServersOffset(_ kind: TransportKind) async throws {
        let size = 8 << 20
        try await Self.withFile(size: size) { file, states in
            try await ResumableUploadServer.with(cuts: [5 << 20]) { server in
                try await kind.with { transport in
                    let first = await #expect(throws: StrataError.self) {
                        try await Self.networker(transport, attempts: 1).upload(
                            Self.endpoint(server.baseURL), from: file, stateFolder: states)
                    }
                    #expect(first?.kind == .transport)
                    #expect(Self.stateFiles(states).count == 1)
                    let result = try await Self.networker(transport, attempts: 1).upload(
                        Self.endpoint(server.baseURL), from: file, stateFolder: states)
                    #expect(Self.storedSize(result.response.value) == size)
                    #expect(result.resumedFrom > 4 << 20 && result.resumedFrom < 5 << 20)
                    #expect(result.resumptions == 0)
                    #expect(
                        server.stored == [.init(path: "/uploads/clip.bin", size: size, sha256: try Self.sha256(file))])
                    // The bytes before the cut went once: one upload and a little more.
                    #expect(server.bytesIn < size + (1 << 20))
                    #expect(Self.stateFiles(states) == [])
                }
            }
        }
    }

    @Test(arguments: Self.protocolTransports)
    func aChangedFileStartsANewUpload(_ kind: TransportKind) async throws {
        try await Self.withFile(size: 4 << 20) { file, states in
            try await ResumableUploadServer.with(cuts: [2 << 20]) { server in
                try await kind.with { transport in
                    _ = await #expect(throws: StrataError.self) {
                        try await Self.networker(transport, attempts: 1).upload(
                            Self.endpoint(server.baseURL), from: file, stateFolder: states)
                    }
                    #expect(Self.stateFiles(states).count == 1)
                    try Self.pattern(3 << 20, seed: 11).write(to: file)
                    let result = try await Self.networker(transport, attempts: 1).upload(
                        Self.endpoint(server.baseURL), from: file, stateFolder: states)
                    #expect(result.resumedFrom == 0)
                    #expect(Self.storedSize(result.response.value) == 3 << 20)
                    #expect(
                        server.stored == [
                            .init(path: "/uploads/clip.bin", size: 3 << 20, sha256: try Self.sha256(file))
                        ])
                }
            }
        }
    }

    /// Bytes in memory: a first call without retries ends at the cut and leaves its state;
    /// other bytes get an upload of their own; the same bytes given again continue theirs.
    @Test(arguments: Self.protocolTransports)
    func bytesInMemoryContinueAcrossCalls(_ kind: TransportKind) async throws {
        let bytes = Self.pattern(4 << 20, seed: 5)
        let other = Self.pattern(3 << 20, seed: 9)
        try await Self.withFile(size: 0) { _, states in
            try await ResumableUploadServer.with(cuts: [1 << 20, 1 << 20]) { server in
                try await kind.with { transport in
                    let endpoint = Self.endpoint(server.baseURL)
                    let first = await #expect(throws: StrataError.self) {
                        try await Self.networker(transport, attempts: 1).upload(
                            endpoint, from: bytes, stateFolder: states)
                    }
                    #expect(first?.kind == .transport)
                    #expect(Self.stateFiles(states).count == 1)
                    let otherResult = try await Self.networker(transport).upload(
                        endpoint, from: other, stateFolder: states)
                    #expect(otherResult.resumedFrom == 0)
                    #expect(otherResult.resumptions == 1)
                    #expect(Self.stateFiles(states).count == 1)
                    // As after a restart: a new client, on new connections. (On the connection
                    // that finished `other`, NIOResumableUpload stops reading a PATCH that
                    // resumes another upload; the idle timeout would end it after a minute.)
                    let result = try await kind.with { restarted in
                        try await Self.networker(restarted).upload(endpoint, from: bytes, stateFolder: states)
                    }
                    #expect(result.resumedFrom > 0 && result.resumedFrom <= 1 << 20)
                    #expect(result.resumptions == 0)
                    #expect(Self.storedSize(result.response.value) == bytes.count)
                    #expect(
                        server.stored == [
                            .init(path: "/uploads/clip.bin", size: other.count, sha256: Self.sha256(other)),
                            .init(path: "/uploads/clip.bin", size: bytes.count, sha256: Self.sha256(bytes)),
                        ])
                    #expect(Self.stateFiles(states) == [])
                }
            }
        }
    }

    /// A server that stops reading mid-body (the connection neither fails nor moves): the
    /// request ends at the idle timeout, well before the call's deadline, and the upload
    /// continues from the server's offset in the same call.
    @Test(arguments: Self.protocolTransports)
    func aStalledRequestEndsAtTheIdleTimeoutAndContinues(_ kind: TransportKind) async throws {
        let size = 4 << 20
        try await Self.withFile(size: size) { file, states in
            try await ResumableUploadServer.with(cuts: [1 << 20], stalls: true) { server in
                try await kind.with { transport in
                    let reported = Locked<[TransferProgress]>([])
                    let result = try await Self.networker(transport).upload(
                        Self.endpoint(server.baseURL), from: file, stateFolder: states, idleTimeout: .milliseconds(500)
                    ) { progress in reported.withLock { $0.append(progress) } }
                    #expect(Self.storedSize(result.response.value) == size)
                    #expect(result.resumptions == 1)
                    #expect(
                        server.stored == [.init(path: "/uploads/clip.bin", size: size, sha256: try Self.sha256(file))])
                    let values = reported.withLock { $0 }
                    #expect(values.last == TransferProgress(completed: Int64(size), total: Int64(size)))
                    #expect(zip(values, values.dropFirst()).allSatisfy { $0.completed < $1.completed })
                }
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aServerWithoutTheProtocolGetsAPlainUpload(_ kind: TransportKind) async throws {
        let size = 3 << 20
        try await Self.withFile(size: size) { file, states in
            try await TestServer.with(configure: UploadRoutes.register(on:)) { server in
                try await kind.with { transport in
                    let reported = Locked<[TransferProgress]>([])
                    let result = try await Self.networker(transport).upload(
                        Self.endpoint(server.baseURL, path: "upload"), from: file, stateFolder: states
                    ) { progress in reported.withLock { $0.append(progress) } }
                    var digest = FNV1a()
                    digest.add(try Data(contentsOf: file))
                    let receipt = try JSONDecoder().decode(UploadReceipt.self, from: Data(result.response.value.utf8))
                    #expect(
                        receipt
                            == UploadReceipt(
                                bytes: size, digest: digest.hex, contentLength: String(size), transferEncoding: nil))
                    #expect(result.resource == nil)
                    #expect(
                        reported.withLock { $0.last } == TransferProgress(completed: Int64(size), total: Int64(size)))
                    #expect(Self.stateFiles(states) == [])
                }
            }
        }
    }

    /// What an upload of a `size`-byte file ends with, against a server that cuts after
    /// `cuts` and answers as `answer` says, and the state files and uploads left.
    static func failedUpload(
        _ kind: TransportKind, size: Int, cuts: [Int], answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse?
    ) async throws -> (error: StrataError?, stateFiles: [String], stored: [ResumableUploadServer.Stored]) {
        try await withFile(size: size) { file, states in
            try await ResumableUploadServer.with(cuts: .inOrder(cuts), answer: answer) { server in
                try await kind.with { transport in
                    let error = await #expect(throws: StrataError.self) {
                        try await networker(transport).upload(endpoint(server.baseURL), from: file, stateFolder: states)
                    }
                    #expect(error?.kind == .transfer)
                    return (error, stateFiles(states), server.stored)
                }
            }
        }
    }

    /// After a cut, the server says the upload is gone: a typed error, and the state is
    /// forgotten.
    @Test(arguments: Self.protocolTransports, [404, 410])
    func anUploadTheServerLostIsATypedError(_ kind: TransportKind, status: Int) async throws {
        let (error, stateFiles, _) = try await Self.failedUpload(kind, size: 2 << 20, cuts: [1 << 20]) { request in
            request.method == .head ? HTTPResponse(status: .init(code: status)) : nil
        }
        #expect(error?.underlying as? TransferError == .uploadGone(status: status))
        #expect(stateFiles == [])
    }

    /// After a cut, the server claims more bytes than were sent (more than the file has:
    /// a transport may have read all of a smaller number ahead of the wire).
    @Test(arguments: Self.protocolTransports)
    func anOffsetBeyondWhatWasSentIsATypedError(_ kind: TransportKind) async throws {
        let size = 2 << 20
        // The lying server takes the client's DELETE of the upload, too.
        let (error, stateFiles, _) = try await Self.failedUpload(kind, size: size, cuts: [1 << 20]) { request in
            switch request.method {
            case .head:
                var response = HTTPResponse(status: .noContent)
                response.headerFields[HTTPField.Name("Upload-Offset")!] = String(size + 1)
                return response
            case .delete: return HTTPResponse(status: .noContent)
            default: return nil
            }
        }
        guard case .offsetBeyondSent(let offset, let sent) = error?.underlying as? TransferError else {
            Issue.record("not offsetBeyondSent: \(String(describing: error))")
            return
        }
        #expect(offset == Int64(size + 1))
        #expect(sent > 0 && sent <= Int64(size))
        #expect(stateFiles == [])
    }

    @Test(arguments: TransportKind.allCases)
    func aLengthTheServerRefusesIsATypedError(_ kind: TransportKind) async throws {
        let (error, _, stored) = try await Self.failedUpload(kind, size: 100_000, cuts: []) { request in
            guard request.method == .post else { return nil }
            var response = HTTPResponse(status: .contentTooLarge)
            response.headerFields[HTTPField.Name("Upload-Limit")!] = "max-size=65536, min-size=0"
            return response
        }
        #expect(error?.underlying as? TransferError == .lengthRefused(length: 100_000, limit: 65536))
        #expect(stored == [])
    }

    /// An abandoned upload is deleted on the server and forgotten: the next call starts
    /// over.
    @Test(arguments: Self.protocolTransports)
    func anAbandonedUploadIsDeletedAndForgotten(_ kind: TransportKind) async throws {
        let size = 3 << 20
        try await Self.withFile(size: size) { file, states in
            try await ResumableUploadServer.with(cuts: [2 << 20]) { server in
                try await kind.with { transport in
                    let networker = Self.networker(transport, attempts: 1)
                    let endpoint = Self.endpoint(server.baseURL)
                    _ = await #expect(throws: StrataError.self) {
                        try await networker.upload(endpoint, from: file, stateFolder: states)
                    }
                    #expect(try await networker.abandonUpload(endpoint, from: file, stateFolder: states))
                    #expect(Self.stateFiles(states) == [])
                    #expect(try await networker.abandonUpload(endpoint, from: file, stateFolder: states) == false)
                    let result = try await networker.upload(endpoint, from: file, stateFolder: states)
                    #expect(result.resumedFrom == 0)
                    #expect(
                        server.stored == [.init(path: "/uploads/clip.bin", size: size, sha256: try Self.sha256(file))])
                }
            }
        }
    }
}

/// Volume, apart from the other suites (it keeps both cores busy for seconds): run by
/// `.ci/run` on its own with `STRATA_VOLUME_TESTS=1`.
@Suite(
    "Resumable uploads under volume", .runsAlone,
    .enabled(if: ProcessInfo.processInfo.environment["STRATA_VOLUME_TESTS"] != nil, "set STRATA_VOLUME_TESTS=1"))
struct ResumableUploadVolumeTests {
    /// A 512 MiB file cut twice on its way, uploaded by a child process (so that the
    /// server's buffers are not counted): stored with the source's SHA-256, and the
    /// child's resident set grows by less than 64 MiB (the file is read in 64 KiB chunks).
    @Test(.enabled(if: ChildProcess.testBinary != nil, "needs /proc/self/exe (Linux)"))
    func fiveHundredTwelveMegabytesInBoundedMemory() async throws {
        let size = 512 << 20
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-resumable-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("archive.bin")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        var digest = SHA256()
        var chunk = ResumableUploadTests.pattern(1 << 20, seed: 7)
        for megabyte in 0..<(size >> 20) {
            // Each megabyte starts with its number: no two are the same.
            chunk.replaceSubrange(0..<8, with: withUnsafeBytes(of: UInt64(megabyte)) { Data($0) })
            digest.update(data: chunk)
            try handle.write(contentsOf: chunk)
        }
        try handle.close()
        let sha256 = digest.finalize().map { String(format: "%02x", $0) }.joined()
        try await ResumableUploadServer.with(cuts: [200 << 20, 200 << 20]) { server in
            let report = folder.appendingPathComponent("report")
            let process = try ResumableUploadProcessTests.child(
                uploading: file, to: server.baseURL, states: folder.appendingPathComponent("states"), report: report)
            #expect(try await ChildProcess.run(process, timeout: .seconds(120)) == false)
            #expect(process.terminationStatus == 0)
            #expect(server.stored == [.init(path: "/uploads/clip.bin", size: size, sha256: sha256)])
            let growth = try #require(Int(String(decoding: try Data(contentsOf: report), as: UTF8.self)))
            print("resumable upload: 512 MiB in 3 requests, the client's peak RSS growth \(growth >> 20) MiB")
            // Most runs grow by 20-40 MiB; about one in eight spiked past the bound (to
            // 152 MiB), with cuts or without, with 256 KiB chunks or 64 KiB, whatever
            // glibc's arena count: a buffer of the streamed request body not yet traced.
            withKnownIssue("the client's resident set spikes past 64 MiB in some runs", isIntermittent: true) {
                ResidentMemory.expect(growth: growth, below: 64 << 20, "peak RSS growth \(growth >> 20) MiB")
            }
        }
    }
}
