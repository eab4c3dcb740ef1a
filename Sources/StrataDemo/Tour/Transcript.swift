import Foundation

/// Formats a tour as the compact transcript `strata-demo` prints, one line a step:
///
/// ```
/// ✔ GET  /users/1                    200    3.1 ms  User(name: "Ann", photos: 2)  · Endpoint(_:model:)
/// ```
public enum Transcript {
    /// The width the request target is padded to.
    static let targetWidth = 26

    /// The first lines: what the tour runs against.
    public static func header(baseURL: URL, transport: String) -> String {
        "Strata tour · \(baseURL.absoluteString) · \(transport) transport"
    }

    /// The heading printed before a section's first step.
    public static func heading(_ section: TourSection) -> String {
        "\n\(section.title)"
    }

    /// The line of one step: mark, method, target, status, time, summary and feature;
    /// a skipped step shows its name and why it was skipped.
    public static func line(for result: TourStepResult) -> String {
        if result.skipped {
            return
                "\(result.passed ? "–" : "✘") \(pad(result.step.rawValue, to: 4 + 1 + targetWidth + 1 + 3 + 1 + 9))  \(result.summary)"
        }
        let mark = result.passed ? "✔" : "✘"
        let method = pad(result.exchange?.method ?? "—", to: 4)
        let target = pad(result.exchange?.target ?? "(no request)", to: targetWidth)
        let status = padLeft(result.exchange?.status.map(String.init) ?? "—", to: 3)
        let time = padLeft(milliseconds(result.duration), to: 9)
        return "\(mark) \(method) \(target) \(status) \(time)  \(result.summary)  · \(result.feature)"
    }

    /// The closing line: how many steps behaved, and which did not.
    public static func footer(for report: TourReport) -> String {
        let total = report.results.count
        let failed = report.failures
        guard !failed.isEmpty else {
            let skipped = report.results.filter(\.skipped).count
            let skippedNote = skipped > 0 ? " (\(skipped) skipped: not on this transport)" : ""
            return "\n✔ All \(total) steps behaved as expected\(skippedNote)."
        }
        let names = failed.filter { !$0.skipped }.map(\.step.rawValue).joined(separator: ", ")
        let skipped = failed.filter(\.skipped).count
        let skippedNote = skipped > 0 ? " (\(skipped) skipped)" : ""
        return "\n✘ \(failed.count) of \(total) steps did not behave as expected\(skippedNote): \(names)"
    }

    /// `3.1 ms`.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let ms = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return String(format: "%.1f ms", ms)
    }

    private static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private static func padLeft(_ text: String, to width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
