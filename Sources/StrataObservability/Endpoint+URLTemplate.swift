#if Observability
    import Strata

    /// The URL template an endpoint gives for its spans.
    enum URLTemplateKey: CallValueKey {
        typealias Value = String
    }

    extension Endpoint {
        /// The endpoint's URL template, such as `/users/{id}`: ``TelemetryMiddleware`` names
        /// its spans `{method} {template}` (`GET /users/{id}`) and puts it in `url.template`, so
        /// that a tracing backend groups calls by operation rather than by URL. A redirect's
        /// hops, which go elsewhere, keep the method alone. `nil` (the default): spans are
        /// named after the method.
        public var urlTemplate: String? {
            get { options[URLTemplateKey.self] }
            set { options[URLTemplateKey.self] = newValue }
        }

        /// This endpoint with ``urlTemplate`` set to `template`.
        public func urlTemplate(_ template: String) -> Endpoint {
            option(URLTemplateKey.self, template)
        }
    }
#endif
