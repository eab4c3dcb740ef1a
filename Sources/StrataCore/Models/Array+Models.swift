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
            return try decodeDirectly(decodable, from: rawBody, using: decoder)
        }
        return try from(raw: JSON(rawBody: rawBody, decoder: decoder))
    }

    /// Decodes `[Element]`, known to be `Decodable` as `type`, straight from the bytes.
    private static func decodeDirectly<Decoded: Decodable>(
        _ type: Decoded.Type, from rawBody: Data, using decoder: JSONDecoder
    ) throws -> [Element] {
        let decoded: Decoded
        do {
            decoded = try decoder.decode(type, from: rawBody)
        } catch {
            throw MappingError(type: Self.self, underlying: error)
        }
        // `Decoded` is `[Element]` itself (`type` is `Self.self`, seen as `Decodable`); a
        // dynamic cast to `[Element]` would check every element.
        precondition(Decoded.self == [Element].self)
        return unsafeBitCast(decoded, to: [Element].self)
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
        // Through buffers, both ways: generic code that reads the elements through
        // `Collection` (as `map` does here) pays a heap allocation per element for the
        // subscript's accessor, and `append` checks capacity and uniqueness per element;
        // a buffer's element is a plain address. A throw leaves the models made so far to
        // the array's initializer, which destroys them.
        try dto.withUnsafeBufferPointer { dtos in
            try [Element](unsafeUninitializedCapacity: dtos.count) { models, initialized in
                for index in dtos.indices {
                    (models.baseAddress.unsafelyUnwrapped + index).initialize(to: try Element.from(dto: dtos[index]))
                    initialized = index + 1
                }
            }
        }
    }
}
