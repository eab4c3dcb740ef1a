#if Swinject
    import Foundation
    import Strata
    import Swinject

    /// Registers a Strata client and its parts in a Swinject container, by protocol: the
    /// protocol-oriented JSON API service layer's dependency injection, with Strata's types
    /// in its roles.
    ///
    /// ```swift
    /// let container = Container()
    /// StrataAssembly(
    ///     transport: { _ in URLSessionTransport() },
    ///     middleware: { _ in [HeadersMiddleware(["User-Agent": "MyApp/1.0"])] }
    /// ).assemble(container: container)            // or Assembler([StrataAssembly(…)])
    /// let networker = container.resolve(Networker.self)
    ///
    /// // In a test, or for one feature: a child container overrides one part.
    /// let child = Container(parent: container)
    /// child.register((any Transport).self) { _ in mock }
    /// let mocked = child.resolve(Networker.self)   // same middleware and coders, the mock underneath
    /// ```
    ///
    /// ## What is registered
    ///
    /// | service | service layer role | resolved as |
    /// |---|---|---|
    /// | `any Transport` | `RequestExecutable`: sends the request (Alamofire there) | `transport(resolver)`, made once and shared with child containers (`.container` scope) |
    /// | `[any Middleware]` | `RequestCommandable`: the steps between the handler and the executor | `middleware(resolver)`, `[]` unless given |
    /// | `JSONEncoder`, `JSONDecoder` | the `JSONDecoder` injected into `ResponseParseable` (and its encoding twin) | `configuration.jsonEncoder` / `.jsonDecoder` |
    /// | `Networker.Configuration` | — (timeouts, limits, validation, redirects) | `configuration` with the resolved coders |
    /// | `Networker` | `RequestHandeable`: runs the request, validates and parses the answer | built anew on each resolve from the four above |
    ///
    /// `Networker` is resolved from the container it is asked of, each time (it is a cheap
    /// value), so a registration overridden in a child container — a `MockTransport`, a
    /// `JSONDecoder` with other strategies, another middleware list — changes the client the
    /// child resolves, while the parent keeps resolving the original. The transport is kept
    /// per container (and its children): every client shares one connection pool, and a
    /// transport that must be shut down (an `AsyncHTTPClientTransport` that owns its
    /// `HTTPClient`) is created once, not per resolve; shut it down when the app stops.
    ///
    /// The service layer's other roles are values made per call, not services, so nothing registers
    /// them: `HttpRequestable` is a `RequestDescription` (route, method, parameters,
    /// encoding, headers) or an `Endpoint`; `ResponseParseable.handleResponse` is
    /// `Endpoint.parse` (given the client's decoder), or `decoding: Model.self` at the call
    /// site; `HttpResponsable` is the parsed value, or an `EndpointResponse` with the
    /// response head. The service layer's `Endpoint` protocol (string base URL, path, `buildURL()`)
    /// becomes a route by refining `StringServiceRoute`.
    ///
    /// The core, `Strata`, knows nothing of containers: this assembly only calls
    /// `Networker.init(transport:middleware:configuration:)`, which any other injection
    /// style can call as well. This module links no transport: the app passes the factory of
    /// the one it uses.
    ///
    /// Swinject's `Container` is not `Sendable`: register and resolve at start-up, or from one
    /// task, and hand the resolved `Networker` (which is `Sendable`) to concurrent code.
    public struct StrataAssembly: Assembly, Sendable {
        /// Makes the transport; called once for the container this assembly registers in,
        /// whose child containers share the result unless they register their own.
        public let transport: @Sendable (any Resolver) -> any Transport
        /// Makes the middleware, outermost first.
        public let middleware: @Sendable (any Resolver) -> [any Middleware]
        /// The client's settings, and the coders registered as `JSONEncoder` and `JSONDecoder`.
        public let configuration: Networker.Configuration

        /// Creates an assembly.
        /// - Parameters:
        ///   - transport: makes the transport, for example `{ _ in URLSessionTransport() }`;
        ///     it may resolve what it needs from the resolver it is given.
        ///   - middleware: makes the middleware, outermost first; none unless given.
        ///   - configuration: the client's settings; its `jsonEncoder` and `jsonDecoder` are
        ///     registered as the container's `JSONEncoder` and `JSONDecoder`.
        public init(
            transport: @escaping @Sendable (any Resolver) -> any Transport,
            middleware: @escaping @Sendable (any Resolver) -> [any Middleware] = { _ in [] },
            configuration: Networker.Configuration = Networker.Configuration()
        ) {
            self.transport = transport
            self.middleware = middleware
            self.configuration = configuration
        }

        /// Registers `any Transport`, `[any Middleware]`, `JSONEncoder`, `JSONDecoder`,
        /// `Networker.Configuration` and `Networker` in `container`.
        public func assemble(container: Container) {
            let transport = self.transport
            let middleware = self.middleware
            let configuration = self.configuration

            container.register((any Transport).self) { resolver in transport(resolver) }
                .inObjectScope(.container)
            container.register([any Middleware].self) { resolver in middleware(resolver) }
            container.register(JSONEncoder.self) { _ in configuration.jsonEncoder }
            container.register(JSONDecoder.self) { _ in configuration.jsonDecoder }
            container.register(Networker.Configuration.self) { resolver in
                var resolved = configuration
                resolved.jsonEncoder = resolver.resolve(JSONEncoder.self) ?? configuration.jsonEncoder
                resolved.jsonDecoder = resolver.resolve(JSONDecoder.self) ?? configuration.jsonDecoder
                return resolved
            }
            // Once this assembly has run, every part resolves; the fallbacks to this assembly's
            // own factories only spare the force unwraps.
            container.register(Networker.self) { resolver in
                Networker(
                    transport: resolver.resolve((any Transport).self) ?? transport(resolver),
                    middleware: resolver.resolve([any Middleware].self) ?? middleware(resolver),
                    configuration: resolver.resolve(Networker.Configuration.self) ?? configuration)
            }
        }
    }
#endif
