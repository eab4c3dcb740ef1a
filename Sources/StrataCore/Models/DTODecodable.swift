/// An application-layer model that can be created from its raw-layer DTO.
///
/// ```swift
/// extension Photo: DTODecodable {
///     static func from(dto: PhotoEntry) throws -> Photo {
///         Photo(id: dto.id, image: dto.ref)
///     }
/// }
/// ```
public protocol DTODecodable {
    /// The raw-layer model this model is read from.
    associatedtype DTO: RawDecodable

    /// Creates the model from its DTO.
    /// - Throws: ``MappingError`` when the DTO does not describe a valid model.
    static func from(dto: DTO) throws -> Self
}

/// The earlier designs' name for an application-layer model that maps both ways.
public typealias DTOConvertible = DTOEncodable & DTODecodable
