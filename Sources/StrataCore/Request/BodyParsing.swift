import Foundation
import HTTPTypes

/// The parse steps behind ``Endpoint``'s constructors. They live in plain generic
/// functions, so the endpoints' `@Sendable` parse closures capture no metatypes.
///
/// Every model kind follows one rule for an empty body (a 204 or 205, or zero bytes):
/// an `Optional` response is `nil`; any other type is read as usual, and when that
/// fails the ``MappingError`` says the body was empty.
enum BodyParsing {
    /// Bytes → `T` with the JSON decoder.
    static func decodable<T: Decodable>(_ response: RawResponse, _ decoder: JSONDecoder) throws -> T {
        try readingBody(of: response) { body in try decodable(body, decoder) }
    }

    /// Bytes → raw-layer model.
    static func raw<T: RawDecodable>(_ response: RawResponse, _ decoder: JSONDecoder) throws -> T {
        try readingBody(of: response) { body in try raw(body, decoder) }
    }

    /// Bytes → DTO → application model.
    static func model<T: DTODecodable>(_ response: RawResponse, _ decoder: JSONDecoder) throws -> T {
        try readingBody(of: response) { body in try model(body, decoder) }
    }

    /// Bytes → `T` with the JSON decoder, for any bytes (a body, a streamed record).
    static func decodable<T: Decodable>(_ bytes: Data, _ decoder: JSONDecoder) throws -> T {
        do {
            return try decoder.decode(T.self, from: bytes)
        } catch {
            throw MappingError(type: T.self, underlying: error)
        }
    }

    /// Bytes → raw-layer model, for any bytes.
    static func raw<T: RawDecodable>(_ bytes: Data, _ decoder: JSONDecoder) throws -> T {
        try T.decode(rawBody: bytes, using: decoder)
    }

    /// Bytes → DTO → application model, for any bytes.
    static func model<T: DTODecodable>(_ bytes: Data, _ decoder: JSONDecoder) throws -> T {
        let dto = try T.DTO.decode(rawBody: bytes, using: decoder)
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

    /// Whether the response carries no body: 204 No Content, 205 Reset Content, or zero bytes
    /// (which is what `Content-Length: 0` gives).
    static func hasEmptyBody(_ response: RawResponse) -> Bool {
        if response.body.isEmpty { return true }
        let code = response.head.status.code  // parsed from the head's field on every read
        return code == HTTPResponse.Status.noContent.code || code == HTTPResponse.Status.resetContent.code
    }

    /// Runs `read` on the body, applying the empty-body rule.
    static func readingBody<T>(of response: RawResponse, _ read: (Data) throws -> T) throws -> T {
        guard hasEmptyBody(response) else { return try read(response.body) }
        return try readingEmptyBody(of: response, read)
    }

    /// The empty-body rule itself, in a function of its own: generic code that is not
    /// specialised looks up the metadata of its local values (here `T?`) on entry, so the
    /// rule's locals would cost every read, empty or not.
    @inline(never)
    private static func readingEmptyBody<T>(of response: RawResponse, _ read: (Data) throws -> T) throws -> T {
        if let absent = T.self as? any EmptyBodyAbsence.Type, let none = absent.absentValue as? T {
            return none
        }
        do {
            return try read(response.body)
        } catch let error as MappingError where error.layer == .model {
            throw error
        } catch {
            let status = response.head.status.withStandardReasonPhrase
            throw MappingError(
                type: T.self,
                description:
                    "the response body was empty (\(status.code) \(status.reasonPhrase)); \(T.self) needs one, \(T.self)? accepts none"
            )
        }
    }
}

/// A type whose value for a response without a body is "absent": `Optional`'s `nil`.
protocol EmptyBodyAbsence {
    /// The value an empty body decodes to.
    static var absentValue: Self { get }
}

extension Optional: EmptyBodyAbsence {
    /// `nil`: no body, no value.
    static var absentValue: Wrapped? { nil }
}

/// The model readings of ``Endpoint``'s constructors, for a feature that reads bodies or
/// records of its own (an event stream, a message on a socket) by the same rules:
///
/// ```swift
/// let user: User = try ModelParsing.model(bytes, JSONDecoder())  // bytes → DTO → model
/// ```
///
/// Each throws a ``MappingError`` naming the type, whose ``MappingError/layer`` says which
/// layer failed.
public enum ModelParsing {
    /// Bytes → `T` with the JSON decoder.
    public static func decodable<T: Decodable>(_ bytes: Data, _ decoder: JSONDecoder) throws -> T {
        try BodyParsing.decodable(bytes, decoder)
    }

    /// Bytes → raw-layer model (`T.decode(rawBody:using:)`).
    public static func raw<T: RawDecodable>(_ bytes: Data, _ decoder: JSONDecoder) throws -> T {
        try BodyParsing.raw(bytes, decoder)
    }

    /// Bytes → DTO → application model.
    public static func model<T: DTODecodable>(_ bytes: Data, _ decoder: JSONDecoder) throws -> T {
        try BodyParsing.model(bytes, decoder)
    }
}
