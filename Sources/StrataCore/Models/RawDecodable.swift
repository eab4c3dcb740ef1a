import Foundation

/// A raw-layer model (a DTO, by convention named `…Entry`) that can be created
/// from the raw data a server sent.
///
/// `Decodable` types whose `Raw` is ``JSON`` get both requirements for free:
///
/// ```swift
/// struct PhotoEntry: Codable, RawDecodable {
///     typealias Raw = Json
///     let id: String
///     let ref: String
/// }
/// ```
///
/// For such types Strata decodes a response body straight from its bytes with the
/// client's `JSONDecoder` (no intermediate ``JSON`` tree); ``from(raw:)`` is used when
/// you already hold a ``JSON`` value. A type that maps its raw value by hand should
/// not also be `Decodable`, or should implement ``decode(rawBody:using:)`` too.
public protocol RawDecodable {
    /// The raw representation, for example ``JSON``.
    associatedtype Raw

    /// Creates the model from its raw representation.
    /// - Throws: ``MappingError`` when `raw` does not describe a valid model.
    static func from(raw: Raw) throws -> Self

    /// Creates the model from the bytes of a response body.
    ///
    /// The default parses the bytes into `Raw` (when `Raw` is ``JSON``, `Data` or
    /// `String`) and calls ``from(raw:)``; `Decodable` models with a ``JSON`` raw type
    /// decode the bytes directly with `decoder`.
    /// - Throws: ``MappingError`` when the bytes do not describe a valid model.
    static func decode(rawBody: Data, using decoder: JSONDecoder) throws -> Self
}

/// The earlier designs' name for a raw-layer model that maps both ways.
public typealias RawMappable = RawEncodable & RawDecodable

extension RawDecodable {
    /// Parses the body into `Raw` when Strata knows how, then calls ``from(raw:)``.
    public static func decode(rawBody: Data, using decoder: JSONDecoder) throws -> Self {
        guard let parse = Raw.self as? any RawBodyRepresentable.Type else {
            throw MappingError(
                type: Self.self,
                description: "\(Raw.self) cannot be read from a response body; implement decode(rawBody:using:)")
        }
        let raw = try parse.init(rawBody: rawBody, decoder: decoder)
        guard let typed = raw as? Raw else {
            throw MappingError(type: Self.self, description: "\(Raw.self) could not be read from the body")
        }
        return try from(raw: typed)
    }
}

extension RawDecodable where Self: Decodable, Raw == JSON {
    /// Decodes the model from a ``JSON`` tree, without serialising it to bytes.
    public static func from(raw: JSON) throws -> Self {
        do {
            return try JSONValueDecoder().decode(Self.self, from: raw)
        } catch {
            throw MappingError(type: Self.self, underlying: error)
        }
    }

    /// Decodes the model straight from the body bytes with `decoder`.
    public static func decode(rawBody: Data, using decoder: JSONDecoder) throws -> Self {
        do {
            return try decoder.decode(Self.self, from: rawBody)
        } catch {
            throw MappingError(type: Self.self, underlying: error)
        }
    }
}
