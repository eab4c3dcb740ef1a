/// A model could not be mapped between its layers (raw data, DTO, application model).
///
/// It names the type being mapped and, for `Codable` types, the coding path of the
/// value that failed, e.g. `User: at "photos[1].id": expected String, found a number`.
public struct MappingError: Error, Sendable, CustomStringConvertible {
    /// The name of the type that could not be mapped.
    public let typeName: String
    /// The coding path of the failing value, as `photos[1].id`; empty at the top level.
    public internal(set) var codingPath: String
    /// What went wrong.
    public let reason: String
    /// Which step of the mapping failed.
    public package(set) var layer: Layer = .raw
    /// The error that caused the failure as it was thrown (a `DecodingError`, or the
    /// app's own error from `from(dto:)` or a parse function), when there is one.
    public let underlying: (any Error)?

    /// The steps of mapping a response into an application model.
    public enum Layer: Sendable, Equatable {
        /// Bytes or raw data into a raw-layer model (decoding).
        case raw
        /// A DTO into an application model (`from(dto:)`).
        case model
    }

    /// Creates an error for `type` with a free-form reason.
    public init(type: Any.Type, codingPath: String = "", description: String) {
        self.init(type: type, codingPath: codingPath, reason: description, underlying: nil)
    }

    private init(type: Any.Type, codingPath: String, reason: String, underlying: (any Error)?) {
        self.typeName = String(reflecting: type)
        self.codingPath = codingPath
        self.reason = reason
        self.underlying = underlying
    }

    /// Creates an error for `type` from an underlying error, reading the coding path
    /// and reason out of `DecodingError` and `EncodingError`.
    public init(type: Any.Type, underlying: any Error) {
        if let mapping = underlying as? MappingError {
            self = mapping
            return
        }
        let (path, reason) = CodingErrorDescription.describe(underlying)
        self.init(type: type, codingPath: path, reason: reason, underlying: underlying)
    }

    /// A one-line description for logs.
    public var description: String {
        codingPath.isEmpty
            ? "\(typeName): \(reason)"
            : "\(typeName): at \"\(codingPath)\": \(reason)"
    }
}

extension MappingError {
    /// The same error seen from an enclosing collection: `segment` is prefixed to the path.
    func nested(under segment: String) -> MappingError {
        let joined: String
        if codingPath.isEmpty {
            joined = segment
        } else if codingPath.hasPrefix("[") {
            joined = segment + codingPath
        } else {
            joined = segment + "." + codingPath
        }
        var copy = self
        copy.codingPath = joined
        return copy
    }
}
