import HTTPTypes

extension StrataError {
    /// How a call whose work threw `cause` ends: the one classification, for a buffered
    /// call, a streamed body's read, a download, a WebSocket's reads. Transports and steps
    /// report what happened (a ``TransportError`` for the network's own failures, a
    /// `CancellationError` when their task was stopped); this decides timeout versus
    /// cancellation versus failure.
    ///
    /// In order: the call's deadline passed → its timeout (any failure then is one); a
    /// ``StrataError`` already decided → as it is; a `CancellationError` → a cancellation;
    /// a body past its limit → ``Kind/bodyTooLarge``; a ``TransportError`` → a transport
    /// failure (a timeout is one even when the task was cancelled; another failure of a
    /// cancelled task is its cancellation); anything else → a cancellation when the task
    /// was cancelled, else a transport failure of kind ``TransportError/Kind/other``.
    /// - Parameters:
    ///   - cause: what the work threw.
    ///   - request: the call's request.
    ///   - response: the response head, once it arrived: the phase is "reading the body"
    ///     then, "waiting for the response head" before.
    ///   - phase: the phase the call reached, when its response head is not an HTTP one (a
    ///     gRPC call's metadata); `nil` to tell it by `response`.
    ///   - deadlinePassed: whether the call's deadline passed while the work ran.
    ///   - taskCancelled: whether the task that waited for the work was cancelled.
    package static func ending(
        _ cause: any Error, request: HTTPRequest?, response: HTTPResponse?, phase: Phase? = nil,
        deadlinePassed: Bool, taskCancelled: @autoclosure () -> Bool
    ) -> StrataError {
        let phase = phase ?? self.phase(reached: response)
        if deadlinePassed { return transportFailure(TransportError(.timedOut), request, response, phase) }
        switch cause {
        case let strata as StrataError:
            return strata
        case is CancellationError:
            return StrataError(.cancelled, request: request, response: response, phase: phase)
        case MessageBodyError.tooLarge:
            return StrataError(.bodyTooLarge, underlying: cause, request: request, response: response)
        case let transport as TransportError where transport.kind == .bodyTooLarge:
            return StrataError(.bodyTooLarge, underlying: cause, request: request, response: response)
        case let transport as TransportError where isTimeout(transport) || !taskCancelled():
            return transportFailure(transport, request, response, phase)
        default:
            return taskCancelled()
                ? StrataError(.cancelled, request: request, response: response, phase: phase)
                : transportFailure(TransportError(.other, underlying: cause), request, response, phase)
        }
    }

    /// A call's timeout at the stage it reached.
    package static func timeout(request: HTTPRequest?, response: HTTPResponse?) -> StrataError {
        ending(CancellationError(), request: request, response: response, deadlinePassed: true, taskCancelled: false)
    }

    /// A call's cancellation at the stage it reached.
    package static func cancellation(request: HTTPRequest?, response: HTTPResponse?) -> StrataError {
        ending(CancellationError(), request: request, response: response, deadlinePassed: false, taskCancelled: true)
    }

    /// A ``Kind/transport`` failure at `phase`.
    private static func transportFailure(
        _ error: TransportError, _ request: HTTPRequest?, _ response: HTTPResponse?, _ phase: Phase
    ) -> StrataError {
        StrataError(.transport, underlying: error, request: request, response: response, phase: phase)
    }

    /// Where a call that has `response` (or none yet) was when it ended.
    private static func phase(reached response: HTTPResponse?) -> Phase {
        response == nil ? .awaitingHead : .readingBody
    }

    // The questions steps ask of an error, answered here beside the classification: the
    // one file that tells a cancellation by its type.

    /// Whether `error` comes from further down a client's pipeline (or is a cancellation),
    /// and goes up through every step untouched: a ``StrataError``, a ``TransportError``,
    /// a ``MessageBodyError`` or a `CancellationError`. Anything else a step throws is the
    /// step's own failure (``Kind/middleware``). A step that wraps errors of its own
    /// leaves these as they are.
    public static func passesThroughSteps(_ error: any Error) -> Bool {
        error is StrataError || error is TransportError || error is CancellationError || error is MessageBodyError
    }

    /// Whether `error` says a call was cancelled: a `CancellationError` (what a step or a
    /// transport throws) or a ``StrataError`` of kind ``Kind/cancelled`` (what a call
    /// reports). Whether the *current task* is cancelled is another question
    /// (`Task.isCancelled`), which a step asks besides when it matters.
    public static func isCancellation(_ error: any Error) -> Bool {
        error is CancellationError || (error as? StrataError)?.kind == .cancelled
    }
}
