import Foundation
import Strata
import StrataAsyncHTTPClient
import StrataURLSession
import Testing

/// Where httpbin runs, from `HTTPBIN_URL` (set by `scripts/conformance.sh`).
enum Httpbin {
    static let baseURL: URL? = ProcessInfo.processInfo.environment["HTTPBIN_URL"].flatMap(URL.init(string:))
    static let isConfigured = baseURL != nil
    static let skipReason: Comment = "HTTPBIN_URL is not set; run scripts/conformance.sh to test against httpbin"

    /// A route below httpbin's base URL.
    static func route(_ path: String) -> HttpbinRoute {
        HttpbinRoute(baseURL: baseURL, path: path)
    }
}

/// A path on the httpbin server.
struct HttpbinRoute: ServiceRoute {
    let baseURL: URL?
    let path: String
}

/// The real transports, each run through the same conformance tests.
enum TransportKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case asyncHTTPClient
    case urlSession

    var testDescription: String { rawValue }

    /// Runs `body` with a client over a fresh transport, then shuts the transport down.
    func withNetworker<T>(
        middleware: [any Middleware] = [],
        _ body: (Networker) async throws -> T
    ) async throws -> T {
        switch self {
        case .urlSession:
            return try await body(Networker(transport: URLSessionTransport(), middleware: middleware))
        case .asyncHTTPClient:
            let transport = AsyncHTTPClientTransport()
            do {
                let result = try await body(Networker(transport: transport, middleware: middleware))
                try await transport.shutdown()
                return result
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }
}

/// What httpbin's `/anything`, `/get`, `/post`… answer: the request as it parsed it.
struct HttpbinEcho: Decodable, Sendable {
    let method: String?
    let args: [String: ArgValue]
    let form: [String: ArgValue]?
    let files: [String: String]?
    let json: JSON?
    let data: String?
    let headers: [String: String]
    let url: String
}

/// httpbin gives a single value as a string and a repeated one as a list.
enum ArgValue: Decodable, Equatable, Sendable {
    case one(String)
    case many([String])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(String.self) {
            self = .one(value)
        } else {
            self = .many(try container.decode([String].self))
        }
    }
}
