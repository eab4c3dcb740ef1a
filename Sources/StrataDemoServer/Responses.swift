import Foundation
import Hummingbird
import NIOCore

/// Builds the demo API's responses.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum Responses {
    /// `value` as JSON with sorted keys.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response
    {
        // The payloads are plain structs of strings and numbers; encoding them cannot fail,
        // but a failure still answers with a well-formed 500 rather than a crash.
        guard let data = try? jsonData(value) else {
            return raw(#"{"error":"could not encode the response"}"#, status: .internalServerError)
        }
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `value` as JSON text with sorted keys, for an event's `data`.
    static func jsonText(_ value: some Encodable) throws -> String {
        String(decoding: try jsonData(value), as: UTF8.self)
    }

    private static func jsonData(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(value)
    }

    /// An error response: `{"error": message}` with `status`.
    static func error(_ message: String, status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        json(ErrorPayload(error: message), status: status, headers: headers)
    }

    /// `text` as it is, labelled as JSON (for deliberately malformed bodies).
    static func raw(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Request {
    /// The body, up to `limit` bytes.
    mutating func bodyBytes(limit: Int = 16 * 1024 * 1024) async throws -> [UInt8] {
        let buffer = try await collectBody(upTo: limit)
        return Array(buffer.readableBytesView)
    }

    /// The media type of the `Content-Type` field, lowercased, without parameters.
    var mediaType: String? {
        headers[.contentType].map { value in
            (value.split(separator: ";", maxSplits: 1).first ?? "")
                .trimmingCharacters(in: .whitespaces).lowercased()
        }
    }
}
