#if Observability
    import HTTPTypes
    import Metrics
    import Strata

    /// The HTTP client metrics of one attempt, from its events: one more active request and
    /// the request body's size as it starts; one fewer, the duration and the response body's
    /// size as it ends.
    struct AttemptMetrics: AttemptListener {
        let attempt: ClientAttempt
        let factory: any MetricsFactory

        init(attempt: ClientAttempt, start: AttemptStart, factory: any MetricsFactory) {
            self.attempt = attempt
            self.factory = factory
            Meter(label: "http.client.active_requests", dimensions: attempt.dimensions, factory: factory).increment()
            if let length = start.requestBodyLength {
                Recorder(label: "http.client.request.body.size", dimensions: attempt.dimensions, factory: factory)
                    .record(length)
            }
        }

        func headReceived(_ head: AttemptHead) {}

        func attemptEnded(_ end: AttemptEnd) {
            Meter(label: "http.client.active_requests", dimensions: attempt.dimensions, factory: factory).decrement()
            let status = end.response?.status.code
            var dimensions = attempt.dimensions
            if let status { dimensions.append(("http.response.status_code", String(status))) }
            if let errorType = ClientAttempt.errorType(status: status, error: end.error) {
                dimensions.append(("error.type", errorType))
            }
            if let version = end.protocolVersion { dimensions.append(("network.protocol.version", version)) }
            Timer(label: "http.client.request.duration", dimensions: dimensions, factory: factory)
                .recordNanoseconds(Int64(end.duration / .nanoseconds(1)))
            if status != nil {
                Recorder(label: "http.client.response.body.size", dimensions: dimensions, factory: factory)
                    .record(end.responseBodyBytes)
            }
        }
    }
#endif
