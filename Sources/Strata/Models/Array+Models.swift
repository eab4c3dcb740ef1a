import Foundation

extension Array: RawEncodable where Element: RawEncodable, Element.Raw == JSON {
    /// Maps every element to its raw value and returns them as a JSON array.
    public func toRaw() throws -> JSON {
        .array(try map { try $0.toRaw() })
    }
}

extension Array: RawDecodable where Element: RawDecodable, Element.Raw == JSON {
    /// Maps every element of a JSON array; anything but an array is a ``MappingError``.
    public static func from(raw: JSON) throws -> [Element] {
        guard case .array(let elements) = raw else {
            throw MappingError(type: Self.self, description: "expected a JSON array, found \(raw.kindName)")
        }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do {
                result.append(try Element.from(raw: element))
            } catch let error as MappingError {
                throw error.nested(under: "[\(index)]")
            }
        }
        return result
    }

    /// Decodes straight from the bytes when the elements are `Decodable`;
    /// otherwise parses a JSON array and maps each element.
    public static func decode(rawBody: Data, using decoder: JSONDecoder) throws -> [Element] {
        if let decodable = Self.self as? any Decodable.Type {
            let decoded: Any
            do {
                decoded = try decoder.decode(decodable, from: rawBody)
            } catch {
                throw MappingError(type: Self.self, underlying: error)
            }
            if let elements = decoded as? [Element] { return elements }
        }
        return try from(raw: JSON(rawBody: rawBody, decoder: decoder))
    }
}

extension Array: DTOEncodable where Element: DTOEncodable, Element.DTO.Raw == JSON {
    /// Maps every element to its DTO.
    public func toDTO() throws -> [Element.DTO] {
        try map { try $0.toDTO() }
    }
}

extension Array: DTODecodable where Element: DTODecodable, Element.DTO.Raw == JSON {
    /// Maps every DTO to an application model, so `photos: .from(dto: dto.photos)` works.
    public static func from(dto: [Element.DTO]) throws -> [Element] {
        try dto.map { try Element.from(dto: $0) }
    }
}
