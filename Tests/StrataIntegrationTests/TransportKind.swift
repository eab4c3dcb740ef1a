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

    /// Runs `body` with a fresh transport of this kind and shuts it down afterwards; a
    /// URLSession transport holds at most `responseBufferLimit` response bytes unread.
    func with<T>(
        responseBufferLimit: Int = URLSessionTransport.defaultResponseBufferLimit,
        _ body: (any Transport) async throws -> T
    ) async throws -> T {
        switch self {
        case .urlSession:
            return try await body(URLSessionTransport(responseBufferLimit: responseBufferLimit))
        case .asyncHTTPClient:
            return try await AsyncHTTPClientTransport().shuttingDown(after: body)
        }
    }
}

extension AsyncHTTPClientTransport {
    /// Runs `body` with this transport, then shuts it down, also when `body` throws.
    func shuttingDown<T>(after body: (AsyncHTTPClientTransport) async throws -> T) async throws -> T {
        do {
            let result = try await body(self)
            try await shutdown()
            return result
        } catch {
            try? await shutdown()
            throw error
        }
    }
}
