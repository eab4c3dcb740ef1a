import Foundation
import HTTPTypes

extension StrataError {
    /// The error that reading the body of `head` ended with, as the call's failure: a
    /// ``StrataError`` as it is, a cancellation, a body past its limit, or else the
    /// transport's failure while reading the body.
    static func readingBody(of head: HTTPResponse, failedWith error: any Error) -> StrataError {
        switch error {
        case let error as StrataError: error
        case is CancellationError: StrataError(.cancelled, response: head)
        case let error as MessageBodyError where error != .alreadyConsumed:
            StrataError(.bodyTooLarge, underlying: error, response: head)
        default:
            StrataError(
                .transport, underlying: error as? TransportError ?? TransportError(.other, underlying: error),
                response: head, phase: .readingBody)
        }
    }
}
