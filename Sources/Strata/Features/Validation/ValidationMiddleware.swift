import Foundation
import HTTPTypes

/// Validates responses inside the middleware chain, so that the steps outside it
/// (a retry, a logger) see unacceptable responses as ``StrataError``s.
///
/// The ``Networker`` validates every response after the chain anyway (with
/// ``Networker/Configuration/validation`` or ``Endpoint/validation``); add this step
/// only when earlier middleware must react to the failure.
public struct ValidationMiddleware: Middleware {
    /// The rule applied.
    public let validation: ResponseValidation
    /// How many bytes of a refused response's body the error keeps.
    public let errorBodyLimit: Int

    /// Creates the step with a rule; the default accepts 2xx.
    public init(_ validation: ResponseValidation = .default, errorBodyLimit: Int = StrataError.defaultErrorBodyLimit) {
        self.validation = validation
        self.errorBodyLimit = errorBodyLimit
    }

    /// Passes the request on and checks the response.
    public func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        let (response, responseBody) = try await next(request, body, context)
        // Only the head is checked here, so the body can stay a stream.
        let bodyIsEmpty = responseBody == nil || responseBody?.length == 0
        guard let failure = validation.failure(of: response, bodyIsEmpty: bodyIsEmpty, for: request) else {
            return (response, responseBody)
        }
        let body = await responseBody?.prefix(errorBodyLimit + 1, until: context.deadline)
        throw StrataError(failure, request: request, response: response, body: body, bodyLimit: errorBodyLimit)
    }
}

extension ValidationMiddleware {
    /// `true`: it reads an error body's snippet within the deadline, and waits for nothing else but `next`.
    public var boundsItsWaits: Bool { true }
}
