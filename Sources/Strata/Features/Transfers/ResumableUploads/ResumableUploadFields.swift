import Foundation
import HTTPTypes

/// The header fields of the resumable upload protocol (draft-ietf-httpbis-resumable-upload,
/// interop version 6), and the requests made of them.
enum ResumableUploadFields {
    static let interopVersion = HTTPField.Name("Upload-Draft-Interop-Version")!
    static let complete = HTTPField.Name("Upload-Complete")!
    static let offset = HTTPField.Name("Upload-Offset")!
    static let length = HTTPField.Name("Upload-Length")!
    static let limit = HTTPField.Name("Upload-Limit")!
    static let version = "6"

    /// A request of the protocol to `resource`: `method` with the interop version.
    static func request(_ method: HTTPRequest.Method, _ resource: URL) -> HTTPRequest {
        var request = HTTPRequest(method: method, url: resource)
        request.headerFields[interopVersion] = version
        return request
    }

    /// `Upload-Offset`: a non-negative integer, or `nil`.
    static func offset(in response: HTTPResponse) -> Int64? {
        response.headerFields[offset].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.flatMap {
            $0 >= 0 ? $0 : nil
        }
    }

    /// The `max-size` of `Upload-Limit` (a structured dictionary), when there is one.
    static func maxSize(in response: HTTPResponse) -> Int64? {
        guard let limits = response.headerFields[limit] else { return nil }
        for member in limits.split(separator: ",") {
            let pair = member.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0] == "max-size", let size = Int64(pair[1]), size >= 0 { return size }
        }
        return nil
    }

    /// The upload resource a creation's answer names (`Location`, resolved against
    /// `base`): an absolute `http` or `https` URL with a host, or `nil`.
    static func resource(in response: HTTPResponse, relativeTo base: URL?) -> URL? {
        guard let location = response.headerFields[.location],
            let resource = URL(string: location, relativeTo: base)?.absoluteURL,
            let scheme = resource.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = resource.host, !host.isEmpty
        else { return nil }
        return resource
    }

    /// Whether an `OPTIONS` answer says the server speaks the protocol: it names its
    /// interop version or its limits.
    static func speaksTheDraft(_ response: HTTPResponse) -> Bool {
        response.status.kind == .successful
            && (response.headerFields[interopVersion] != nil || response.headerFields[limit] != nil)
    }
}
