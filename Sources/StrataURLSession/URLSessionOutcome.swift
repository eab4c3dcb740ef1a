import Foundation
import HTTPTypes
import HTTPTypesFoundation
import Strata
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns what a completion handler receives into a response head and body, or an error.
enum URLSessionOutcome {
    static func make(
        data: Data?,
        response: URLResponse?,
        error: (any Error)?
    ) -> Result<(HTTPResponse, Data), any Error> {
        if let error { return .failure(URLErrorMapping.map(error)) }
        guard let urlResponse = response as? HTTPURLResponse else {
            return .failure(TransportError(.other, underlying: URLSessionTransportError.notHTTPResponse))
        }
        guard let head = urlResponse.httpResponse else {
            let status = URLSessionTransportError.invalidStatus(urlResponse.statusCode)
            return .failure(TransportError(.other, underlying: status))
        }
        return .success((head, data ?? Data()))
    }
}
