import Foundation
import OpenAPIRuntime
import Strata
import StrataDemoOpenAPI
import StrataOpenAPI

/// The OpenAPI steps: the demo API's client, generated from `openapi/strata-demo.yaml` by
/// swift-openapi-generator, running over the tour's own `.resilient()` client.
enum OpenAPISteps {
    static let all: [TourStep] = [
        TourStep(
            id: .generatedClient, section: .openAPI, feature: "Client(transport: NetworkerTransport(networker))"
        ) { session in
            let client = Client(serverURL: session.api.baseURL, transport: NetworkerTransport(session.networker))
            let generated = try await client.getUser(path: .init(id: 1)).ok.body.json
            // The generated type is one more raw layer: the app model is the same as
            // `Endpoint(_:model:)` gives.
            let user = try User.from(dto: UserEntry(generated))
            try check(user.name == "Ann" && user.photos.count == 2, "the user was \(user)")
            return StepOutcome(
                summary:
                    "getUser → Components.Schemas.User → UserEntry → User(name: \"\(user.name)\", photos: \(user.photos.count))",
                value: user)
        },
        TourStep(
            id: .generatedClientRetries, section: .openAPI,
            feature: "NetworkerTransport: Strata's retry under a generated client"
        ) { session in
            let client = Client(serverURL: session.api.baseURL, transport: NetworkerTransport(session.networker))
            let name = "tour-\(UUID().uuidString.prefix(8))"
            // A body the generated client can send more than once (`.multiple`): retried.
            let upload = try await client.putFlaky(path: .init(name: name), body: .binary(HTTPBody("tour")))
            let answer = try upload.ok.body.json
            let calls = try await client.getFlakyCalls(path: .init(name: name)).ok.body.json.calls
            try check(answer.attempt == 3 && calls == 3, "attempt \(answer.attempt), \(calls) calls")
            return StepOutcome(
                summary: "putFlaky: 503, 503, then 200 on attempt \(answer.attempt); the server counted \(calls) calls",
                value: calls)
        },
    ]
}

extension UserEntry {
    /// The raw-layer user from the generated client's schema type.
    init(_ user: Components.Schemas.User) {
        self.init(
            name: user.name, age: user.age, type: user._type == ._0 ? .owner : .member,
            photos: user.photos.map { PhotoEntry(id: $0.id, ref: $0.ref) })
    }
}
