#if GRPC
    import GRPCCore

    /// How to reach a gRPC method: its service and method names, the route of a
    /// `RequestDescription<GRPCRoute>` (gRPC has no URLs, so the layered models' generic route takes
    /// this instead of a `URLRouteProvider`).
    ///
    /// Build it from a generated method descriptor:
    ///
    /// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests makes these calls) -->
    /// ```swift
    /// let route = GRPCRoute(Strata_Demo_V1_UserService.Method.GetUser.descriptor)
    /// let request = try RequestDescription(route: route, message: Strata_Demo_V1_GetUserRequest.with { $0.id = 1 })
    /// ```
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCRoute: Sendable, Hashable, CustomStringConvertible {
        /// The method, as the generated code describes it.
        public var method: MethodDescriptor

        /// Creates the route of a generated method descriptor.
        public init(_ method: MethodDescriptor) {
            self.method = method
        }

        /// Creates the route of a method named by its fully qualified service
        /// (`strata.demo.v1.UserService`) and its method name (`GetUser`).
        public init(service: String, method: String) {
            self.method = MethodDescriptor(fullyQualifiedService: service, method: method)
        }

        /// The fully qualified service name, such as `strata.demo.v1.UserService`.
        public var service: String { method.service.fullyQualifiedService }

        /// The method's name within its service, such as `GetUser`.
        public var methodName: String { method.method }

        /// The HTTP/2 path the call is sent to: `/strata.demo.v1.UserService/GetUser`.
        public var path: String { "/" + method.fullyQualifiedMethod }

        /// The route as `service/method`.
        public var description: String { method.fullyQualifiedMethod }

        /// Whether both routes name the same service and method (a descriptor's RPC type, which
        /// generated descriptors carry and named ones do not, is not compared).
        public static func == (lhs: GRPCRoute, rhs: GRPCRoute) -> Bool {
            lhs.method.fullyQualifiedMethod == rhs.method.fullyQualifiedMethod
        }

        /// Hashes the service and method names.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(method.fullyQualifiedMethod)
        }
    }
#endif
