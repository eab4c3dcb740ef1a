import Foundation
import Strata

/// The transfer steps: a download with a progress bar that the server cuts halfway and
/// the client continues, and a list read page by page.
enum TransferSteps {
    /// What `/files/tour.bin` holds: 2 MiB, byte `i` being `i % 251`.
    static let tourFile = Data((0..<(2 << 20)).map { UInt8($0 % 251) })

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
