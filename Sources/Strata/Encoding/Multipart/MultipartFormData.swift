import Foundation

/// A `multipart/form-data` request body (RFC 7578), built up part by part.
///
/// Text fields and in-memory data are kept as they are; files are only referenced and
/// read when the body is encoded, so large uploads can be streamed with ``makeChunks(chunkSize:)``
/// without ever being fully in memory.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Ann", name: "user")
/// try form.append(fileAt: photoURL, name: "photo")        // image/jpeg from the extension
/// request.headerFields[.contentType] = form.contentType
/// for try await chunk in form.makeChunks() { upload(chunk) }
/// ```
///
/// The value is `Sendable`; copies are independent, and encoding never mutates it.
public struct MultipartFormData: Sendable {
    /// The boundary that separates parts; always valid per ``isValidBoundary(_:)``.
    public let boundary: String

    /// The parts in the order they were appended.
    var parts: [MultipartPart] = []

    /// Creates an empty form with a fresh random boundary (see ``randomBoundary()``).
    public init() {
        self.boundary = MultipartBoundary.random()
    }

    /// Creates an empty form with a given boundary.
    ///
    /// Use a fixed boundary for reproducible output, for example in tests.
    /// - Throws: ``MultipartError/invalidBoundary(_:)`` unless ``isValidBoundary(_:)``
    ///   accepts `boundary`.
    public init(boundary: String) throws {
        guard Self.isValidBoundary(boundary) else { throw MultipartError.invalidBoundary(boundary) }
        self.boundary = boundary
    }

    /// Whether `boundary` is a valid RFC 2046 boundary: 1–70 characters from the `bchars`
    /// set (ASCII letters, digits, `'()+_,-./:=?` and space), not ending in a space.
    public static func isValidBoundary(_ boundary: String) -> Bool {
        MultipartBoundary.problem(with: boundary) == nil
    }

    /// A fresh random boundary: `strata.boundary.` followed by 16 hexadecimal digits.
    public static func randomBoundary() -> String {
        MultipartBoundary.random()
    }

    /// The `Content-Type` header value for this body:
    /// `multipart/form-data; boundary=<boundary>`, with the boundary quoted when it
    /// contains characters that are not allowed in a MIME token (such as `:` or space).
    public var contentType: String {
        let parameter = MultipartBoundary.needsQuoting(boundary) ? "\"\(boundary)\"" : boundary
        return "multipart/form-data; boundary=" + parameter
    }

    /// Whether the form has no parts.
    public var isEmpty: Bool { parts.isEmpty }
}
