import Crypto
import Foundation
import Strata

/// The transfer steps: a download with a progress bar that the server cuts halfway and
/// the client continues, an upload the server cuts and the client resumes, and a list
/// read page by page.
enum TransferSteps {
    /// What `/files/tour.bin` holds: 2 MiB, byte `i` being `i % 251`.
    static let tourFile = Data((0..<(2 << 20)).map { UInt8($0 % 251) })

    /// What the tour uploads: 3 MiB, byte `i` being `i % 241`.
    static let tourUpload = Data((0..<(3 << 20)).map { UInt8($0 % 241) })

    static let all: [TourStep] = [
        TourStep(id: .downloadResumes, section: .transfers, feature: "networker.download(_:to:progress:)") {
            session in
            let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
                "strata-tour-\(UUID().uuidString).bin")
            defer { try? FileManager.default.removeItem(at: destination) }
            let progress = session.progress
            let result = try await session.networker.download(session.api.file("tour.bin"), to: destination) {
                progress(bar($0))
            }
            progress("\n")
            try check(try Data(contentsOf: destination) == tourFile, "the file's bytes differ from the server's")
            try check(result.retries == 1, "\(result.retries) continuations, not 1")
            try check(result.response.status.code == 206, "the last response was \(result.response.status.code)")
            return StepOutcome(
                summary:
                    "\(result.bytes / 1024) KiB; the server cut the first response at \(result.resumedFrom / 1024) KiB, the retry step asked for the rest (Range, If-Range → 206) in the same call; bytes checked",
                value: result.bytes)
        },
        TourStep(id: .resumableUpload, section: .transfers, feature: "networker.upload(_:from:progress:)") {
            session in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "strata-tour-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("tour.bin")
            try tourUpload.write(to: file)
            let host = try await session.networker.send(session.api.uploadHost())
            let progress = session.progress
            let result = try await session.networker.upload(
                session.api.resumableUpload(to: host.origin, name: "tour.bin"), from: file,
                stateFolder: folder.appendingPathComponent("state")
            ) { progress(bar($0)) }
            progress("\n")
            let stored = result.response.value
            let sha256 = SHA256.hash(data: tourUpload).map { String(format: "%02x", $0) }.joined()
            try check(stored.size == tourUpload.count, "the server stored \(stored.size) bytes")
            try check(stored.sha256 == sha256, "the stored bytes differ from the file's")
            try check(result.resumptions == 1, "\(result.resumptions) continuations, not 1")
            try check(result.resource != nil, "the server did not create an upload resource")
            return StepOutcome(
                summary:
                    "\(stored.size / 1024) KiB to the upload host (draft-ietf-httpbis-resumable-upload): created empty, the first PATCH cut at 1024 KiB, the offset asked with HEAD and the rest sent in the same call; SHA-256 checked",
                value: stored)
        },
        TourStep(id: .pagedList, section: .transfers, feature: "networker.pages(_:style:)") { session in
            var names: [String] = []
            var requests = 0
            for try await page in session.networker.pages(
                session.api.allUsers(), style: .pageNumber { $0.users.isEmpty })
            {
                requests += 1
                names += page.users.map(\.name)
            }
            // The six users every server starts with, then those the tour registered.
            let initial = ["Ann", "Bob", "Cleo", "Dan", "Hanna", "Ivan"]
            try check(names.starts(with: initial), "the users were \(names)")
            try check(requests == (names.count + 1) / 2 + 1, "\(requests) pages for \(names.count) users")
            return StepOutcome(
                summary: "\(names.count) users, two a page, over \(requests) requests (the last page empty): "
                    + names.joined(separator: ", "),
                value: names)
        },
    ]

    /// A progress bar that redraws its line: `[██████······] 50 % of 2048 KiB`.
    static func bar(_ progress: TransferProgress) -> String {
        let width = 24
        let fraction = progress.fraction ?? 0
        let filled = Int(fraction * Double(width))
        return "\r    [" + String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            + "] \(Int(fraction * 100)) % of \((progress.total ?? progress.completed) / 1024) KiB"
    }
}
