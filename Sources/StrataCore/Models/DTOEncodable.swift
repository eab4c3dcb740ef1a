/// An application-layer model that can turn itself into its raw-layer DTO.
public protocol DTOEncodable {
    /// The raw-layer model this model is sent as.
    associatedtype DTO: RawEncodable

    /// Returns the DTO that represents this model.
    /// - Throws: ``MappingError`` when the model cannot be represented.
    func toDTO() throws -> DTO
}
