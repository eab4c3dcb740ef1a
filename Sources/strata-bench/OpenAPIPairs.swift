import AsyncHTTPClient
import Foundation
import OpenAPIAsyncHTTPClient
import Strata
import StrataAsyncHTTPClient
import StrataDemoOpenAPI
import StrataOpenAPI

// Both modules name their transport `AsyncHTTPClientTransport`: this file spells out which.

/// The `openapi` group's sides: the demo API's generated client sending the same
/// operations over two transports, each checking the decoded answer.
enum OpenAPIPairs {
    /// The generated client over swift-openapi-async-http-client's transport on `client`,
    /// with the harness's 60 s timeout per request: the baseline.
    static func direct(_ client: HTTPClient, baseURL: URL) -> RequestSet {
        let transport = OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport(
            configuration: .init(client: client, timeout: Limits.timeout))
        return requests(Client(serverURL: baseURL, transport: transport))
    }

    /// The generated client over `NetworkerTransport` and a `Networker` over Strata's
    /// transport on `client`, in `configuration` (the bench's default): the subject.
    static func strata(
        _ client: HTTPClient, baseURL: URL, configuration: Networker.Configuration
    ) -> RequestSet {
        let networker = Networker(
            transport: StrataAsyncHTTPClient.AsyncHTTPClientTransport(client: client), configuration: configuration)
        return requests(Client(serverURL: baseURL, transport: NetworkerTransport(networker)))
    }

    /// The user `registerUser` sends: ``Payloads/userJSON``'s fields.
    static let newUser = Components.Schemas.User(
        name: "User 1", age: 30, _type: ._0,
        photos: (1...3).map { .init(id: "1-\($0)", ref: "https://img.example/1/\($0).jpg") })

    /// `getUser` (`GET /users/1`, the user's 193 bytes decoded into
    /// `Components.Schemas.User`) and `registerUser` (`POST /user/register` of
    /// ``newUser`` as JSON, `201 Created` with the same user); the other workloads fail.
    private static func requests(_ client: Client) -> RequestSet {
        RequestSet(
            user: { try check(user: try await client.getUser(path: .init(id: 1)).ok.body.json.name) },
            photos: RequestSet.missing("GET 1 MB photos"),
            form: RequestSet.missing("POST form"),
            register: { try check(user: try await client.registerUser(body: .json(newUser)).created.body.json.name) })
    }
}
