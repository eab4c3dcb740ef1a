import Foundation
import HTTPTypes

extension StrataError {
    /// The error that reading the body of `head` ended with, as the call's failure (see
    /// ``ending(_:request:response:deadlinePassed:taskCancelled:)``): a read of a call's
    /// body already throws the call's ``StrataError``, kept as it is.
    static func readingBody(of head: HTTPResponse, failedWith error: any Error) -> StrataError {
        ending(error, request: nil, response: head, deadlinePassed: false, taskCancelled: false)
    }
}
