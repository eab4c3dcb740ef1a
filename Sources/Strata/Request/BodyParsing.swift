import Foundation

/// The parse steps behind ``Endpoint``'s constructors. They live in plain generic
/// functions, so the endpoints' `@Sendable` parse closures capture no metatypes.
enum BodyParsing {
    /// Bytes → `T` with the JSON decoder.
    static func decodable<T: Decodable>(_ body: Data, _ decoder: JSONDecoder) throws -> T {
        do {
            return try decoder.decode(T.self, from: body)
        } catch {
            throw MappingError(type: T.self, underlying: error)
        }
    }

    /// Bytes → raw-layer model.
    static func raw<T: RawDecodable>(_ body: Data, _ decoder: JSONDecoder) throws -> T {
        try T.decode(rawBody: body, using: decoder)
    }

    /// Bytes → DTO → application model.
    static func model<T: DTODecodable>(_ body: Data, _ decoder: JSONDecoder) throws -> T {
        let dto = try T.DTO.decode(rawBody: body, using: decoder)
        do {
            return try T.from(dto: dto)
        } catch {
            var mapping = MappingError(type: T.self, underlying: error)
            mapping.layer = .model
            throw mapping
        }
    }

    /// Applies a caller's transform, naming `T` in any error it throws.
    static func transformed<T>(_ json: JSON, _ transform: (JSON) throws -> T) throws -> T {
        do {
            return try transform(json)
        } catch {
            throw MappingError(type: T.self, underlying: error)
        }
    }
}
