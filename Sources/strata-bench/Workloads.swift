import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import Strata

/// The per-request settings both sides share: Strata's defaults (60 s for the whole
/// exchange, 32 MiB of body at most).
enum Limits {
    static let timeout: TimeAmount = .seconds(60)
    static let maxBody = 32 * 1024 * 1024
}

/// Builds the workloads against the server at `baseURL`: raw AsyncHTTPClient on
/// `rawClient`, Strata through `networker`.
func makeWorkloads(baseURL: URL, rawClient: HTTPClient, networker: Networker, concurrency: Int) -> [Workload] {
    let userURL = baseURL.appendingPathComponent("json/user/1")
    let echoURL = baseURL.appendingPathComponent("echo/bench")

    let getUser = [
        Variant(name: "raw") {
            let request = HTTPClientRequest(url: userURL.absoluteString)
            let response = try await rawClient.execute(request, timeout: Limits.timeout)
            guard response.status == .ok else { throw BenchError(description: "GET user: \(response.status)") }
            let body = try await response.body.collect(upTo: Limits.maxBody)
            try checkUser(try JSONDecoder().decode(UserEntry.self, from: body).name)
        },
        Variant(name: "strata(model)") {
            let user = try await networker.send(Endpoint(RequestDescription(route: userURL), model: User.self))
            try checkUser(user.name)
        },
        Variant(name: "strata(decodable)") {
            let user = try await networker.send(Endpoint(RequestDescription(route: userURL), decoding: UserEntry.self))
            try checkUser(user.name)
        },
    ]

    let payload = EchoPayload()
    let encoder = JSONEncoder.strataDefault()  // the encoder Strata's default configuration uses
    let postEcho = [
        Variant(name: "raw") {
            var request = HTTPClientRequest(url: echoURL.absoluteString)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: try encoder.encode(payload)))
            let response = try await rawClient.execute(request, timeout: Limits.timeout)
            guard response.status == .ok else { throw BenchError(description: "POST echo: \(response.status)") }
            let body = try await response.body.collect(upTo: Limits.maxBody)
            let echo = try JSONDecoder().decode(EchoEntry.self, from: body)
            try checkEcho(method: echo.method, path: echo.path, bodyIsEmpty: echo.body.isEmpty)
        },
        Variant(name: "strata(model)") {
            let request = RequestDescription(route: echoURL, method: .post, parameters: payload, encoding: .json)
            let echo = try await networker.send(Endpoint(request, model: Echo.self))
            try checkEcho(method: echo.method, path: echo.path, bodyIsEmpty: echo.body.isEmpty)
        },
        Variant(name: "strata(decodable)") {
            let request = RequestDescription(route: echoURL, method: .post, parameters: payload, encoding: .json)
            let echo = try await networker.send(Endpoint(request, decoding: EchoEntry.self))
            try checkEcho(method: echo.method, path: echo.path, bodyIsEmpty: echo.body.isEmpty)
        },
    ]

    return [
        Workload(name: "sequential GET user", concurrency: 1, variants: getUser),
        Workload(name: "\(concurrency)x concurrent GET user", concurrency: concurrency, variants: getUser),
        Workload(name: "sequential POST echo", concurrency: 1, variants: postEcho),
    ]
}

private func checkUser(_ name: String) throws {
    guard name == "User 1" else { throw BenchError(description: "unexpected user \(name)") }
}

private func checkEcho(method: String, path: String, bodyIsEmpty: Bool) throws {
    guard method == "POST", path == "/echo/bench", !bodyIsEmpty else {
        throw BenchError(description: "unexpected echo \(method) \(path)")
    }
}
