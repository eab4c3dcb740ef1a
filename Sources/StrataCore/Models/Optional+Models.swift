import Foundation

/// The bytes JSON treats as insignificant white space.
private let JSONWhitespace: Set<UInt8> = [0x20, 0x0A, 0x0D, 0x09]

extension Optional: RawEncodable where Wrapped: RawEncodable, Wrapped.Raw == JSON {
    /// The wrapped value's raw value, or `null`.
    public func toRaw() throws -> JSON {
        try self?.toRaw() ?? .null
    }
}

extension Optional: RawDecodable where Wrapped: RawDecodable, Wrapped.Raw == JSON {
    /// `nil` for `null`; otherwise the wrapped type's mapping.
    public static func from(raw: JSON) throws -> Wrapped? {
        raw == .null ? nil : try Wrapped.from(raw: raw)
    }

    /// `nil` for an empty body or `null`; otherwise the wrapped type's decoding.
    public static func decode(rawBody: Data, using decoder: JSONDecoder) throws -> Wrapped? {
        let content = rawBody.filter { !JSONWhitespace.contains($0) }
        if content.isEmpty || content.elementsEqual("null".utf8) { return nil }
        return try Wrapped.decode(rawBody: rawBody, using: decoder)
    }
}

extension Optional: DTOEncodable where Wrapped: DTOEncodable, Wrapped.DTO.Raw == JSON {
    /// The wrapped value's DTO, or `nil`.
    public func toDTO() throws -> Wrapped.DTO? {
        try self?.toDTO()
    }
}

extension Optional: DTODecodable where Wrapped: DTODecodable, Wrapped.DTO.Raw == JSON {
    /// `nil` for a `nil` DTO; otherwise the wrapped type's mapping.
    public static func from(dto: Wrapped.DTO?) throws -> Wrapped? {
        try dto.map { try Wrapped.from(dto: $0) }
    }
}
