import Strata

// Seed 004's `Endpoint` protocol as its document writes it, in a module of its own: here
// `Endpoint` is the seed's protocol, and it shadows Strata's `Endpoint<Response>` in the
// whole module. The one change to the seed's code is the protocol it refines,
// `StringServiceRoute`, which makes every route of it a Strata route.

// ---- from the seed ----

protocol Endpoint: StringServiceRoute {

    var baseUrl: String { get }

    var path: String { get }

    func buildURL() -> String
}

// ---- end of the seed's code ----

/// Where the seed's base URL points: the in-process server a test started. A task-local
/// value, so tests running side by side each reach their own server.
enum SeedAPI {
    /// The base URL of the service, `http://127.0.0.1:PORT`.
    @TaskLocal static var baseUrl = "http://127.0.0.1:1"
}

// The seed: "as it should be declared just once, we created a protocol extension and
// declared the computed property value".
extension Endpoint {
    var baseUrl: String { SeedAPI.baseUrl }
}

// The seed: "it would be better to create enums and make them to implement the Endpoint
// protocol".
enum UserEndpoint: Endpoint {
    case user(Int)
    case photo(Int)

    var path: String {
        switch self {
        case .user(let id): "/json/user/\(id)"
        case .photo(let id): "photos/\(id)"
        }
    }
}

/// The user the test server sends, as the app reads it.
struct User: Decodable, Equatable, Sendable {
    let name: String
    let age: Int
}
