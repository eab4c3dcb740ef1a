import Foundation
import Logging

/// Records what passes through, in order.
package final class EventLog: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var events: [String] = []  // guarded by `lock`

    package init() {}

    package func append(_ event: String) { lock.withLock { events.append(event) } }
    package var all: [String] { lock.withLock { events } }
}

/// A swift-log handler that keeps every line, for asserting on logs.
package struct CapturingLogHandler: LogHandler {
    package let log: EventLog
    package init(log: EventLog) { self.log = log }
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .trace

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let level = event.level
        let message = event.message
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.render($0.value))" }.joined(
            separator: " ")
        log.append("\(level) \(message) \(fields)")
    }

    /// Metadata with dictionaries in key order, so lines compare exactly.
    package static func render(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .dictionary(let dictionary):
            "[" + dictionary.sorted { $0.key < $1.key }.map { "\($0.key): \(render($0.value))" }.joined(separator: ", ")
                + "]"
        case .array(let array):
            "[" + array.map(render).joined(separator: ", ") + "]"
        default:
            value.description
        }
    }
}
