import Foundation
import Strata

// The inputs of the benchmarks: a 20-key nested object for the encodings, a seed-002
// photo list of about 1 MB in both model layers, and the 193-byte user.

/// A sign-up form of 20 keys, two of them nested objects and two arrays.
struct SignUpForm: Encodable, Sendable {
    struct Address: Encodable, Sendable {
        var street = "Bahnhofstrasse 1"
        var city = "Zürich"
        var postcode = "8001"
        var country = "CH"
    }

    struct Preferences: Encodable, Sendable {
        var newsletter = true
        var theme = "dark"
        var language = "de-CH"
    }

    var firstName = "Ann"
    var lastName = "Smith"
    var email = "ann+strata@example.com"
    var age = 30
    var phone = "+41 44 123 45 67"
    var company = "Example & Co"
    var role = "admin"
    var plan = "pro"
    var seats = 12
    var coupon: String? = nil
    var referrer = "https://example.com/?q=a b"
    var tags = ["swift", "server", "ios"]
    var scores = [1, 2, 3, 5, 8]
    var acceptsTerms = true
    var timezone = "Europe/Zurich"
    var currency = "CHF"
    var notes = "first line\nsecond line"
    var source = "web"
    var address = Address()
    var preferences = Preferences()
}

/// A seed-002 photo reference as the server sends it.
struct PhotoEntry: Codable, Sendable, RawDecodable {
    typealias Raw = JSON
    var id: String
    var ref: String
}

/// A photo as the app sees it, mapped from ``PhotoEntry``.
struct Photo: Sendable, DTODecodable {
    typealias DTO = PhotoEntry
    var id: String
    var image: String

    static func from(dto: PhotoEntry) throws -> Photo {
        Photo(id: dto.id, image: dto.ref)
    }
}

/// A seed-002 user as the server sends it.
struct UserEntry: Codable, Sendable, RawDecodable {
    typealias Raw = JSON
    var name: String
    var age: Int
    var type: Int
    var photos: [PhotoEntry]
}

/// A user as the app sees it.
struct User: Sendable, DTODecodable {
    typealias DTO = UserEntry
    var name: String
    var isAdmin: Bool
    var photos: [Photo]

    static func from(dto: UserEntry) throws -> User {
        User(name: dto.name, isAdmin: dto.type == 1, photos: try .from(dto: dto.photos))
    }
}

enum Fixtures {
    /// 13 500 photo entries, about 1 MB of JSON (the same list `strata-bench` serves).
    static let photosJSON: Data = {
        let entries = (1...13_500).map { index in
            let padded = String(repeating: "0", count: max(0, 6 - String(index).count)) + String(index)
            return
                #"{"id":"photo-\#(padded)","ref":"https://img.example/albums/\#((index - 1) / 100)/photos/\#(padded).jpg"}"#
        }
        return Data(("[" + entries.joined(separator: ",") + "]").utf8)
    }()

    /// The test server's user with three photos: 193 bytes.
    static let userJSON = Data(
        #"{"age":30,"name":"User 1","photos":[{"id":"1-1","ref":"https://img.example/1/1.jpg"},{"id":"1-2","ref":"https://img.example/1/2.jpg"},{"id":"1-3","ref":"https://img.example/1/3.jpg"}],"type":0}"#
            .utf8)

    static let url = URL(string: "https://api.example.com/v1/users/1")!
}

/// A middleware that passes everything on unchanged.
struct PassThroughMiddleware: Middleware {
    func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        try await next(request, body, context)
    }
}
