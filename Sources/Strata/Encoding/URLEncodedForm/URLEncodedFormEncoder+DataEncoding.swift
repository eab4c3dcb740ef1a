import Foundation

extension URLEncodedFormEncoder {
    /// How `Data` values inside an `Encodable` value are written.
    public enum DataEncoding: Sendable {
        /// The `Data`'s own `Encodable` conformance: an array of bytes, `key[]=1&key[]=2`.
        case deferredToData
        /// A Base64 string. The default.
        case base64
        /// The string returned by the closure; an error it throws ends the encoding.
        case custom(@Sendable (Data) throws -> String)

        /// The matching ``JSONValueEncoder`` strategy.
        var jsonValueStrategy: JSONValueEncoder.DataEncodingStrategy {
            switch self {
            case .deferredToData: .deferredToData
            case .base64: .base64
            case .custom(let closure): .custom { data in .string(try closure(data)) }
            }
        }
    }
}
