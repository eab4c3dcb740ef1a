import Foundation
import Strata
import StrataAsyncHTTPClient
import StrataURLSession
import Testing

/// The real transports every network test runs over.
enum TransportKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case asyncHTTPClient
    case urlSession

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh transport of this kind and shuts it down afterwards.
    func with<T>(_ body: (any Transport) async throws -> T) async throws -> T {
        switch self {
        case .urlSession:
            return try await body(URLSessionTransport())
        case .asyncHTTPClient:
            let transport = AsyncHTTPClientTransport()
            do {
                let result = try await body(transport)
                try await transport.shutdown()
                return result
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }
}
