import Crypto
import Foundation
import Strata
import StrataDemoServer
import StrataTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resumable uploads run by a child process of the test binary: one killed mid-upload and
/// continued by the next process, and one whose memory is measured without the server's
/// (which runs in the parent).
@Suite("Resumable uploads across processes", .serialized, .runsAlone)
struct ResumableUploadProcessTests {
    /// What a child uploads: set only in such a child.
    static let serverVariable = "STRATA_RESUMABLE_CHILD_SERVER"
    static var childServer: String? { ProcessInfo.processInfo.environment[serverVariable] }

    /// Starts a child that uploads `file` to `server` with its state in `states`, and
    /// writes its peak RSS growth (bytes) to `report`.
    static func child(uploading file: URL, to server: URL, states: URL, report: URL) throws -> Process {
        ChildProcess.make(
            executable: try #require(ChildProcess.testBinary),
            filter: "ResumableUploadProcessTests/uploadForTheParent",
            environment: [
                serverVariable: server.absoluteString, "STRATA_RESUMABLE_CHILD_FILE": file.path,
                "STRATA_RESUMABLE_CHILD_STATES": states.path, "STRATA_RESUMABLE_CHILD_REPORT": report.path,
            ])
    }

    /// A child killed (SIGKILL) while the server holds 5 MiB of a 16 MiB upload: the next
    /// process continues from the server's offset, and the server sees the bytes before
    /// the kill once.
    @Test(.enabled(if: ChildProcess.testBinary != nil && childServer == nil, "needs /proc/self/exe (Linux)"))
    func aKilledUploadIsContinuedByTheNextProcess() async throws {
        let size = 16 << 20
        try await ResumableUploadTests.withFile(size: size) { file, states in
            // The first PATCH's connection stops being read 5 MiB in: the child hangs there.
            try await ResumableUploadServer.with(cuts: [5 << 20], stalls: true) { server in
                let report = states.deletingLastPathComponent().appendingPathComponent("report")
                let process = try Self.child(uploading: file, to: server.baseURL, states: states, report: report)
                let running = Task { try await ChildProcess.run(process, timeout: .seconds(60)) }
                var waited = 0
                while server.bytesIn < 5 << 20, waited < 30_000 {
                    try await Deadline.sleep(for: .milliseconds(1))
                    waited += 1
                }
                kill(process.processIdentifier, SIGKILL)
                #expect(try await running.value == false)
                #expect(process.terminationReason == .uncaughtSignal)
                #expect(server.stored == [])
                try await TransportKind.asyncHTTPClient.with { transport in
                    let result = try await ResumableUploadTests.networker(transport, attempts: 1).upload(
                        ResumableUploadTests.endpoint(server.baseURL), from: file, stateFolder: states)
                    #expect(result.resumedFrom > 4 << 20 && result.resumedFrom < 5 << 20)
                    #expect(ResumableUploadTests.storedSize(result.response.value) == size)
                }
                #expect(
                    server.stored == [
                        .init(path: "/uploads/clip.bin", size: size, sha256: try ResumableUploadTests.sha256(file))
                    ])
                #expect(server.bytesIn < size + (1 << 20))
            }
        }
    }

    /// The child's side: uploads the file over AsyncHTTPClient, continuing after cuts, and
    /// reports its peak RSS growth.
    @Test(.enabled(if: childServer != nil, "runs only in a child process of this suite's tests"))
    func uploadForTheParent() async throws {
        let environment = ProcessInfo.processInfo.environment
        let server = try #require(Self.childServer.flatMap(URL.init(string:)))
        let file = URL(fileURLWithPath: try #require(environment["STRATA_RESUMABLE_CHILD_FILE"]))
        let states = URL(fileURLWithPath: try #require(environment["STRATA_RESUMABLE_CHILD_STATES"]))
        let report = URL(fileURLWithPath: try #require(environment["STRATA_RESUMABLE_CHILD_REPORT"]))
        try await TransportKind.asyncHTTPClient.with { transport in
            let (_, growth) = try await PeakRSSSampler.measure {
                try await ResumableUploadTests.networker(transport).upload(
                    ResumableUploadTests.endpoint(server), from: file, stateFolder: states)
            }
            try Data(String(growth).utf8).write(to: report)
        }
    }
}
