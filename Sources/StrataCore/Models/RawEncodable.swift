/// A raw-layer model (a DTO, by convention named `…Entry`) that can turn itself
/// into the raw data sent to a server.
///
/// `Encodable` types whose `Raw` is ``JSON`` get ``toRaw()`` for free:
///
/// ```swift
/// struct CredentialsEntry: Codable, RawEncodable {
///     typealias Raw = Json
///     let login: String
/// }
/// ```
public protocol RawEncodable {
    /// The raw representation, for example ``JSON``.
    associatedtype Raw

    /// Returns the raw representation of this model.
    /// - Throws: ``MappingError`` when the model cannot be represented.
    func toRaw() throws -> Raw
}

extension RawEncodable where Self: Encodable, Raw == JSON {
    /// Encodes the model straight into a ``JSON`` tree, without serialising it to bytes.
    public func toRaw() throws -> JSON {
        do {
            return try JSONValueEncoder().encode(self)
        } catch {
            throw MappingError(type: Self.self, underlying: error)
        }
    }
}
