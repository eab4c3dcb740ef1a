import Foundation

import struct StrataDemo.PhotoEntry

/// The bodies the harness sends and serves, made once per process so that both sides
/// of a pair read the same bytes.
enum Payloads {
    /// A `GET /json/user/1` body in the test server's shape, with three photos: 193 bytes.
    static let userJSON = Data(
        """
        {"age":30,"name":"User 1","photos":[\
        {"id":"1-1","ref":"https://img.example/1/1.jpg"},\
        {"id":"1-2","ref":"https://img.example/1/2.jpg"},\
        {"id":"1-3","ref":"https://img.example/1/3.jpg"}],"type":0}
        """.utf8)

    /// How many photo entries ``photosJSON`` holds.
    static let photoCount = 13_500

    /// A JSON array of ``photoCount`` photo entries (`{"id","ref"}`), about 1 MB:
    /// what `GET /bench/photos` serves.
    static let photosJSON: Data = {
        var json = "["
        json.reserveCapacity(photoCount * 80)
        for index in 0..<photoCount {
            let id = String(index + 1)
            let padded = String(repeating: "0", count: max(0, 6 - id.count)) + id
            if index > 0 { json += "," }
            json +=
                #"{"id":"photo-\#(padded)","ref":"https://img.example/albums/\#(index / 100)/photos/\#(padded).jpg"}"#
        }
        return Data((json + "]").utf8)
    }()

    /// What the in-memory transport answers to a form POST: the test server's echo reply
    /// in shape (`{"body","headers","method","path","query"}`).
    static let formEchoJSON: Data = {
        let body = Data(formBody.utf8).base64EncodedString()
        return Data(
            """
            {"body":"\(body)","headers":{"content-type":"application/x-www-form-urlencoded; charset=utf-8"},\
            "method":"POST","path":"/echo/form","query":null}
            """.utf8)
    }()

    /// The form POSTed by the form workload, as Strata encodes it (`.formURL`).
    static let form = FormPayload()

    /// The same form as the raw variants send it, built by hand with `URLComponents`.
    static var formBody: String {
        var components = URLComponents()
        components.queryItems = [
            URLQueryItem(name: "age", value: String(form.age)),
            URLQueryItem(name: "city", value: form.city),
            URLQueryItem(name: "email", value: form.email),
            URLQueryItem(name: "name", value: form.name),
            URLQueryItem(name: "newsletter", value: String(form.newsletter)),
        ]
        return components.percentEncodedQuery ?? ""
    }

    /// Decodes the photo list as the raw variants do: plain `JSONDecoder` into the DTO.
    static func decodePhotoEntries(_ body: Data) throws -> [PhotoEntry] {
        try JSONDecoder().decode([PhotoEntry].self, from: body)
    }
}

/// The form of the form workload: five fields, one with a space and one with a non-ASCII letter.
struct FormPayload: Encodable, Sendable {
    var name = "Ann Smith"
    var email = "ann@example.com"
    var age = 30
    var city = "Zürich"
    var newsletter = true
}
