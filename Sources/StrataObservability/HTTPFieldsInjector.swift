#if Observability
    import HTTPTypes
    import Instrumentation

    /// Writes a tracer's propagation fields (`traceparent`, `tracestate`, …) into a request's
    /// header fields.
    struct HTTPFieldsInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout HTTPFields) {
            guard let name = HTTPField.Name(key) else { return }
            carrier[name] = value
        }
    }
#endif
