import Foundation
import Hummingbird

/// `POST /user/auth`, `POST /user/register` and `GET /me`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum AccountRoutes {
    static func register(on router: Router<BasicRequestContext>, store: DemoStore) {
        router.post("user/auth") { request, _ in
            try await auth(request, store: store)
        }
        router.post("user/register") { request, _ in
            try await registerUser(request, store: store)
        }
        router.get("me") { request, _ in
            let unauthorized: HTTPFields = [.wwwAuthenticate: #"Bearer realm="strata-demo""#]
            guard let value = request.headers[.authorization], value.hasPrefix("Bearer ") else {
                return Responses.error("a bearer token is required", status: .unauthorized, headers: unauthorized)
            }
            guard let user = await store.user(forToken: String(value.dropFirst("Bearer ".count))) else {
                return Responses.error("the token is not valid", status: .unauthorized, headers: unauthorized)
            }
            return Responses.json(user)
        }
    }

    private static func auth(_ request: Request, store: DemoStore) async throws -> Response {
        var request = request
        guard request.mediaType == "application/x-www-form-urlencoded" else {
            return Responses.error("expected a form body (application/x-www-form-urlencoded)", status: .badRequest)
        }
        let body = try await request.bodyBytes()
        let credentials: CredentialsPayload
        do {
            credentials = try URLEncodedFormDecoder().decode(
                CredentialsPayload.self, from: String(decoding: body, as: UTF8.self))
        } catch {
            return Responses.error("the form needs login and password", status: .badRequest)
        }
        guard let token = await store.issueToken(login: credentials.login, password: credentials.password) else {
            return Responses.error("wrong login or password", status: .unauthorized)
        }
        return Responses.json(TokenPayload(token: token))
    }

    private static func registerUser(_ request: Request, store: DemoStore) async throws -> Response {
        var request = request
        guard request.mediaType == "application/json" else {
            return Responses.error("expected a JSON body", status: .badRequest)
        }
        let body = try await request.bodyBytes()
        let user: UserPayload
        do {
            user = try JSONDecoder().decode(UserPayload.self, from: Data(body))
        } catch {
            return Responses.error("the body is not a user: \(error)", status: .badRequest)
        }
        guard !user.name.isEmpty, (0...1).contains(user.type), user.age >= 0 else {
            return Responses.error("a user needs a name, an age and a type of 0 or 1", status: .unprocessableContent)
        }
        let id = await store.register(user)
        return Responses.json(user, status: .created, headers: [.location: "/users/\(id)"])
    }
}
