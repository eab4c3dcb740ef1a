import Foundation
import Strata
import StrataTestServer
import Testing

/// Item 5 of the migration issue against the real in-process server, over both
/// transports: `GET /status/204` (No Content) and `GET /bytes/0` (200, `Content-Length: 0`)
/// decode to `nil` for every optional model kind, and fail saying the body was empty
/// for the same kinds unwrapped.
@Suite struct EmptyBodyIntegrationTests {
    struct Repo: Decodable, Equatable {
        let id: Int
    }

    struct UserEntry: Codable, RawMappable, Equatable {
        typealias Raw = Json
        let name: String
        let age: Int
    }

    struct User: DTODecodable, Equatable {
        let name: String
        static func from(dto: UserEntry) throws -> User { User(name: dto.name) }
    }

    static let emptyPaths = ["status/204", "bytes/0"]

    /// Runs `body` with a networker over a fresh `kind` transport and a GET of `path` on a fresh server.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func withServer(
        _ kind: TransportKind, _ path: String,
        _ body: (Networker, RequestDescription<URL>) async throws -> Void
    ) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                try await body(
                    Networker(transport: transport), RequestDescription(route: server.baseURL.appending(path: path)))
            }
        }
    }

    @Test(arguments: TransportKind.allCases, emptyPaths)
    func optionalsOfEveryKindAreNil(_ kind: TransportKind, _ path: String) async throws {
        try await Self.withServer(kind, path) { networker, request in
            let repo = try await networker.send(request, decoding: Repo?.self)
            let entry = try await networker.send(request, decoding: UserEntry?.self)
            let user = try await networker.send(request, decoding: User?.self)
            let users = try await networker.send(Endpoint(request, decoding: [User]?.self).timeout(.seconds(10)))

            #expect(repo == nil)
            #expect(entry == nil)
            #expect(user == nil)
            #expect(users == nil)
        }
    }

    @Test(arguments: TransportKind.allCases, emptyPaths)
    func nonOptionalsFailSayingTheBodyWasEmpty(_ kind: TransportKind, _ path: String) async throws {
        try await Self.withServer(kind, path) { networker, request in
            let status = path == "status/204" ? "204 No Content" : "200 OK"

            let errors = [
                await #expect(throws: StrataError.self) { try await networker.send(request, decoding: Repo.self) },
                await #expect(throws: StrataError.self) { try await networker.send(request, decoding: UserEntry.self) },
                await #expect(throws: StrataError.self) { try await networker.send(request, decoding: User.self) },
            ]

            for (error, name) in zip(errors, ["Repo", "UserEntry", "User"]) {
                #expect(error?.kind == .decoding)
                #expect(
                    error?.mappingError?.reason
                        == "the response body was empty (\(status)); \(name) needs one, \(name)? accepts none")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aBodyStillDecodesIntoAnOptional(_ kind: TransportKind) async throws {
        try await Self.withServer(kind, "json/user/5") { networker, request in
            let user = try await networker.send(request, decoding: User?.self)

            #expect(user == User(name: "User 5"))
        }
    }
}
