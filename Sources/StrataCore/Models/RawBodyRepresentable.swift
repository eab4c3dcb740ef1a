import Foundation

/// A raw representation that can be read from the bytes of a response body:
/// ``JSON``, `Data` and `String` (UTF-8).
public protocol RawBodyRepresentable {
    /// Reads the value from `rawBody`.
    /// - Throws: ``MappingError`` when the bytes are not a valid value.
    init(rawBody: Data, decoder: JSONDecoder) throws
}

extension JSON: RawBodyRepresentable {
    /// Parses `rawBody` as JSON with `decoder`.
    public init(rawBody: Data, decoder: JSONDecoder) throws {
        do {
            self = try decoder.decode(JSON.self, from: rawBody)
        } catch {
            throw MappingError(type: JSON.self, underlying: error)
        }
    }
}

extension Data: RawBodyRepresentable {
    /// Keeps the bytes as they are.
    public init(rawBody: Data, decoder: JSONDecoder) throws { self = rawBody }
}

extension String: RawBodyRepresentable {
    /// Reads the bytes as UTF-8.
    public init(rawBody: Data, decoder: JSONDecoder) throws {
        guard let string = String(data: rawBody, encoding: .utf8) else {
            throw MappingError(type: String.self, description: "the body is not valid UTF-8")
        }
        self = string
    }
}
