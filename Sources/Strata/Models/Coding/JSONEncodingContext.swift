import Foundation

/// State shared by every encoder and container taking part in one
/// ``JSONValueEncoder/encode(_:)`` call. Used on one thread only.
final class JSONEncodingContext {
    /// The strategies to apply.
    let options: JSONValueEncoder
    /// The first misuse of the `Encoder` API (for example two values written through
    /// one single-value container); thrown once the value has been encoded.
    private(set) var failure: EncodingError?

    init(options: JSONValueEncoder) {
        self.options = options
    }

    /// Records `description` as a failure at `codingPath`, unless one was recorded already.
    func fail(_ value: Any, at codingPath: [any CodingKey], _ description: String) {
        guard failure == nil else { return }
        failure = .invalidValue(value, .init(codingPath: codingPath, debugDescription: description))
    }
}

extension JSONEncodingContext {
    /// Encodes `value`, applying the strategies to `Date` and `Data` and passing
    /// ``JSON`` through. Returns `nil` when the value wrote nothing at all.
    func slot<T: Encodable>(for value: T, at codingPath: [any CodingKey]) throws -> JSONEncodingSlot? {
        if let json = value as? JSON { return .value(json) }
        if let date = value as? Date { return try slot(forDate: date, at: codingPath) }
        if let data = value as? Data { return try slot(forData: data, at: codingPath) }
        if let url = value as? URL { return .value(.string(url.absoluteString)) }
        if let decimal = value as? Decimal { return .value(try self.decimal(decimal, at: codingPath)) }
        return try encodeItself(value, at: codingPath)
    }

    /// Encodes `value` nested in a container: a value that wrote nothing becomes `{}`, as with `JSONEncoder`.
    func nestedSlot<T: Encodable>(for value: T, at codingPath: [any CodingKey]) throws -> JSONEncodingSlot {
        try slot(for: value, at: codingPath) ?? .value(.object([:]))
    }

    /// Lets `value` encode itself into a fresh encoder.
    private func encodeItself<T: Encodable>(_ value: T, at codingPath: [any CodingKey]) throws -> JSONEncodingSlot? {
        let node = JSONEncodingNode()
        try value.encode(to: JSONValueEncoding(node: node, context: self, codingPath: codingPath))
        return node.content
    }

    private func slot(forDate date: Date, at codingPath: [any CodingKey]) throws -> JSONEncodingSlot? {
        switch options.dateEncodingStrategy {
        case .deferredToDate:
            return try encodeItself(date, at: codingPath)
        case .secondsSince1970:
            return .value(try double(date.timeIntervalSince1970, at: codingPath))
        case .millisecondsSince1970:
            return .value(try double(date.timeIntervalSince1970 * 1000, at: codingPath))
        case .iso8601:
            return .value(.string(date.formatted(.iso8601)))
        case .custom(let closure):
            return .value(try closure(date))
        }
    }

    private func slot(forData data: Data, at codingPath: [any CodingKey]) throws -> JSONEncodingSlot? {
        switch options.dataEncodingStrategy {
        case .deferredToData:
            return try encodeItself(data, at: codingPath)
        case .base64:
            return .value(.string(data.base64EncodedString()))
        case .custom(let closure):
            return .value(try closure(data))
        }
    }
}
