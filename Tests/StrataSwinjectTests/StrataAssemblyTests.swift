import Foundation
import Strata
import StrataSwinject
import StrataTestServer
import StrataTesting
import StrataURLSession
import Swinject
import Testing

/// The app's container: a ``StrataAssembly`` over a real URLSession transport, with one
/// middleware and snake-case coders, as an app would register it.
func makeAppContainer() -> Container {
    var configuration = Networker.Configuration()
    configuration.timeout = .seconds(20)
    let container = Container()
    StrataAssembly(
        transport: { _ in URLSessionTransport() },
        middleware: { _ in [HeadersMiddleware(["X-Client": "strata-swinject"])] },
        configuration: configuration
    ).assemble(container: container)
    return container
}

/// `StrataAssembly` registers the client and its parts by protocol; a client resolved
/// from a container reaches a real server, and a child container swaps one part.
@Suite struct StrataAssemblyTests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func aResolvedClientLoadsFromTheServer() async throws {
        try await TestServer.with { server in
            let container = makeAppContainer()
            let networker = try #require(container.resolve(Networker.self))

            let user = try await networker.send(
                RequestDescription(route: try server.baseURL + "/json/user/7"),
                decoding: User.self)
            #expect(user == User(name: "User 7", age: 30))

            // The registered middleware ran: the server saw its header.
            let echo = try await networker.send(
                RequestDescription(route: try server.baseURL + "/echo/who"),
                decoding: EchoReply.self)
            #expect(echo.path == "/echo/who")
            #expect(echo.headers["x-client"] == "strata-swinject")
            #expect(networker.transport is URLSessionTransport)
            #expect(networker.configuration.timeout == .seconds(20))
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func aChildContainerSwapsTheTransportForTheMock() async throws {
        try await TestServer.with { server in
            let container = makeAppContainer()
            let mock = MockTransport()
            mock.stub(.get, "/json/user/:id", with: .json(["name": "Mock Ann", "age": 41]))
            let child = Container(parent: container)
            child.register((any Transport).self) { _ in mock }

            let request = RequestDescription(route: try server.baseURL + "/json/user/7", parameters: ["full": true])
            let mocked = try #require(child.resolve(Networker.self))
            #expect(try await mocked.send(request, decoding: User.self) == User(name: "Mock Ann", age: 41))

            // The mock got the request the real transport would have: same URL, and the
            // parent's middleware still ran.
            let recorded = try #require(mock.requests.first)
            #expect(mock.requests.count == 1)
            #expect(recorded.method == .get)
            #expect(recorded.url?.absoluteString == server.baseURL.absoluteString + "/json/user/7?full=1")
            #expect(recorded.path == "/json/user/7")
            #expect(recorded.queryItems == [URLQueryItem(name: "full", value: "1")])
            #expect(recorded.headerFields[HTTPField.Name("X-Client")!] == "strata-swinject")
            #expect(recorded.body.isEmpty)

            // The parent still resolves the real transport, and reaches the server.
            let real = try #require(container.resolve(Networker.self))
            #expect(real.transport is URLSessionTransport)
            #expect(try await real.send(request, decoding: User.self) == User(name: "User 7", age: 30))
            #expect(mock.requests.count == 1)
        }
    }

    @Test func aChildContainerOverridesTheDecoderAndTheMiddleware() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/profile", with: .json(["user_name": "Ann", "user_age": 31]))
        let container = Container()
        StrataAssembly(transport: { _ in mock }).assemble(container: container)

        struct Profile: Decodable, Equatable, Sendable {
            let userName: String
            let userAge: Int
        }
        let child = Container(parent: container)
        child.register(JSONDecoder.self) { _ in
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return decoder
        }
        child.register([any Middleware].self) { _ in [HeadersMiddleware(["X-Feature": "profile"])] }

        let request = RequestDescription(route: "https://api.example.com/profile")
        let client = try #require(child.resolve(Networker.self))
        #expect(try await client.send(request, decoding: Profile.self) == Profile(userName: "Ann", userAge: 31))
        #expect(mock.requests.first?.headerFields[HTTPField.Name("X-Feature")!] == "profile")

        // The parent's client keeps the default decoder (no key conversion) and no middleware.
        let parentClient = try #require(container.resolve(Networker.self))
        let error = await #expect(throws: StrataError.self) {
            try await parentClient.send(request, decoding: Profile.self)
        }
        #expect(error?.kind == .decoding)
        #expect(parentClient.middleware.isEmpty)
        #expect(mock.requests.count == 2)
        #expect(mock.requests.last?.headerFields[HTTPField.Name("X-Feature")!] == nil)
    }

    /// The Migrating article's snippet, as written there, then checked.
    @Test func theArticleSnippet() async throws {
        let container = Container()
        StrataAssembly(
            transport: { _ in URLSessionTransport() },  // any Transport: made once, shared by child containers
            middleware: { _ in [HeadersMiddleware(["X-Client": "my-app"])] },
            configuration: Networker.Configuration()  // its coders become JSONEncoder / JSONDecoder
        ).assemble(container: container)
        let networker = container.resolve(Networker.self)  // built from what the container resolves

        // A test (or one feature) overrides one registration in a child container.
        let mock = MockTransport()
        let child = Container(parent: container)
        child.register((any Transport).self) { _ in mock }
        let mocked = child.resolve(Networker.self)  // same middleware and coders, the mock underneath

        #expect(networker?.transport is URLSessionTransport)
        #expect(mocked?.transport as? MockTransport === mock)
        mock.stub(.delete, "/users/1", with: .status(.noContent))
        try await #require(mocked).send(RequestDescription(route: "https://api.example.com/users/1", method: .delete))
        #expect(mock.requests.map(\.path) == ["/users/1"])
        #expect(mock.requests.first?.headerFields[HTTPField.Name("X-Client")!] == "my-app")
    }

    @Test func theTransportIsMadeOncePerContainerAndTheCodersComeFromTheConfiguration() throws {
        let made = Locked(0)
        let configuration = Networker.Configuration()
        let container = Container()
        StrataAssembly(
            transport: { _ in
                made.withLock { $0 += 1 }
                return MockTransport()
            }, configuration: configuration
        ).assemble(container: container)

        let first = try #require(container.resolve(Networker.self))
        let second = try #require(container.resolve(Networker.self))
        let transport = try #require(container.resolve((any Transport).self) as? MockTransport)
        #expect(made.withLock { $0 } == 1)
        #expect(first.transport as? MockTransport === transport)
        #expect(second.transport as? MockTransport === transport)

        // A child without its own transport shares the parent's.
        let child = Container(parent: container)
        #expect(try #require(child.resolve(Networker.self)).transport as? MockTransport === transport)
        #expect(made.withLock { $0 } == 1)

        #expect(container.resolve(JSONDecoder.self) === configuration.jsonDecoder)
        #expect(container.resolve(JSONEncoder.self) === configuration.jsonEncoder)
        #expect(first.configuration.jsonDecoder === configuration.jsonDecoder)
        #expect(first.configuration.timeout == .seconds(60))
    }
}
