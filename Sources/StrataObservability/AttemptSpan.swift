#if Observability
    import HTTPTypes
    import Strata
    import Tracing

    /// What an attempt's span is told from the attempt's events: the status code and HTTP
    /// version with the head; `error.type`, the error status and the end with the attempt's end.
    struct AttemptSpan: AttemptListener {
        let span: any Span

        func headReceived(_ head: AttemptHead) {
            span.updateAttributes { attributes in
                attributes["http.response.status_code"] = head.response.status.code
                attributes["network.protocol.version"] = head.protocolVersion
            }
        }

        func attemptEnded(_ end: AttemptEnd) {
            if let errorType = ClientAttempt.errorType(status: end.response?.status.code, error: end.error) {
                span.attributes["error.type"] = errorType
                span.setStatus(SpanStatus(code: .error))
            }
            if let error = end.error { span.recordError(error) }
            span.end()
        }
    }
#endif
