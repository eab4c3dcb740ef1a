#if OpenAPI
    import Strata

    /// The key under which a call made by a generated OpenAPI client carries its operation's
    /// `operationId`.
    enum OpenAPIOperationIDKey: CallValueKey {
        typealias Value = String
    }

    extension MiddlewareContext {
        /// The `operationId` of the OpenAPI operation this call is for (`getUser`, say), when a
        /// generated client made it through ``NetworkerTransport``, or a step set it; `nil`
        /// otherwise. A step can act on it (a retry rule per operation) and a span can be
        /// named after it.
        public var openAPIOperationID: String? {
            get { options[OpenAPIOperationIDKey.self] }
            set { options[OpenAPIOperationIDKey.self] = newValue }
        }
    }

    extension CallValues {
        /// Values holding only `operationID` as the OpenAPI operation (see
        /// ``StrataCore/MiddlewareContext/openAPIOperationID``).
        static func openAPIOperation(_ operationID: String) -> CallValues {
            var values = CallValues()
            values[OpenAPIOperationIDKey.self] = operationID
            return values
        }
    }

    /// The log metadata key of the OpenAPI `operationId` on the lines a call logs.
    let operationIDMetadataKey = "openapi.operation_id"
#endif
