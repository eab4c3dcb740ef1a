import Foundation
import HTTPTypes

/// Sends a request again after a retryable failure, under a ``RetryPolicy``.
///
/// Each attempt passes through the middleware after this one with
/// ``MiddlewareContext/attempt`` counting up from 1, and is logged at debug level. Retrying
/// stops, and the last response is returned or the last error thrown, when:
/// - the attempts are used up, or the response or failure is not retryable;
/// - the request body cannot be read again (``MessageBody/isReplayable``);
/// - the wait would end after the call's ``MiddlewareContext/deadline``;
/// - the call is cancelled, also during a wait (which then ends at once).
public struct RetryMiddleware: Middleware {
    /// The rules it follows.
    public let policy: RetryPolicy
    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Date

    /// Creates the step.
    public init(policy: RetryPolicy = RetryPolicy()) {
        self.init(policy: policy, sleep: { try await Deadline.sleep(for: $0) }, now: { Date() })
    }

    /// Creates the step with its own clock, for tests: `sleep` waits between attempts
    /// (throwing when cancelled), `now` dates `Retry-After`.
    init(policy: RetryPolicy, sleep: @escaping @Sendable (Duration) async throws -> Void, now: @escaping @Sendable () -> Date) {
        self.policy = policy
        self.sleep = sleep
        self.now = now
    }

    /// Sends `request`, again after each retryable failure; see the type's documentation.
    public func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        var request = request
        switch context.attributes[RetryPolicy.attribute] {
        case RetryPolicy.never:
            return try await next(request, body, context)
        case RetryPolicy.withIdempotencyKey where request.headerFields[RetryPolicy.idempotencyKey] == nil:
            request.headerFields[RetryPolicy.idempotencyKey] = UUID().uuidString
        default:
            break
        }
        let retryable = policy.methods.contains(request.method) || request.headerFields[RetryPolicy.idempotencyKey] != nil
        guard retryable, policy.maxAttempts > 1, body?.isReplayable != false else {
            return try await next(request, body, context)
        }
        var context = context
        var generator = SystemRandomNumberGenerator()
        while true {
            let wait: Duration
            let last: Result<(HTTPResponse, MessageBody?), any Error>
            do {
                let response = try await next(request, body, context)
                guard policy.statuses.contains(response.0.status.code) else { return response }
                last = .success(response)
                let asked = RetryPolicy.retryAfter(response.0, now: now())
                wait = min(asked ?? policy.backoff(after: context.attempt, using: &generator), policy.maxBackoff)
            } catch let error as TransportError where policy.failures.contains(error.kind) {
                last = .failure(error)
                wait = policy.backoff(after: context.attempt, using: &generator)
            }
            guard context.attempt < policy.maxAttempts,
                  context.deadline.map({ ContinuousClock.now + wait < $0 }) ?? true
            else { return try last.get() }
            if case .success((_, let responseBody)) = last {
                await responseBody?.discard()
            }
            context.logger.debug("retry", metadata: [
                "strata.retry.attempt": "\(context.attempt + 1)", "strata.retry.wait": "\(wait)",
                "strata.retry.after": "\(Self.describe(last))",
            ])
            try await sleep(wait)
            context.attempt += 1
        }
    }

    private static func describe(_ outcome: Result<(HTTPResponse, MessageBody?), any Error>) -> String {
        switch outcome {
        case .success((let response, _)): "\(response.status.code)"
        case .failure(let error): "\(error)"
        }
    }
}
