import Foundation
import HTTPTypes
import Strata

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns what a completion handler receives into a response head and body, or an error.
enum URLSessionOutcome {
    /// The outcome of a completion-handler task: the head (see
    /// ``URLSessionTransport/head(of:)``) and the whole body, or the classified error.
    static func make(
        data: Data?,
        response: URLResponse?,
        error: (any Error)?
    ) -> Result<(HTTPResponse, Data), any Error> {
        if let error {
            return .failure(URLErrorMapping.map(error))
        }
        return Result { (try URLSessionTransport.head(of: response), data ?? Data()) }
    }
}
