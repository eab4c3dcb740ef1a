import Foundation
import HTTPTypes
import HTTPTypesFoundation
import Strata
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns what a completion handler receives into a response head and body, or an error.
enum URLSessionOutcome {
    /// The outcome of a task.
    /// - Parameter challengeResponse: the failure response (`401`/`407`) of an
    ///   authentication challenge that ``ChallengeDelegate`` cancelled. When the task
    ///   failed with `URLError.cancelled`, it is returned instead, with an empty body.
    static func make(
        data: Data?,
        response: URLResponse?,
        error: (any Error)?,
        challengeResponse: HTTPURLResponse? = nil
    ) -> Result<(HTTPResponse, Data), any Error> {
        if let error {
            if let challengeResponse, URLErrorMapping.urlError(from: error)?.code == .cancelled {
                return head(of: challengeResponse).map { ($0, Data()) }
            }
            return .failure(URLErrorMapping.map(error))
        }
        return head(of: response).map { ($0, data ?? Data()) }
    }

    /// The response head of `response`, or an error if it is not a valid HTTP response.
    private static func head(of response: URLResponse?) -> Result<HTTPResponse, any Error> {
        guard let urlResponse = response as? HTTPURLResponse else {
            return .failure(TransportError(.other, underlying: URLSessionTransportError.notHTTPResponse))
        }
        guard let head = urlResponse.httpResponse else {
            let status = URLSessionTransportError.invalidStatus(urlResponse.statusCode)
            return .failure(TransportError(.other, underlying: status))
        }
        return .success(head)
    }
}
