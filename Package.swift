// swift-tools-version: 6.2
import PackageDescription

/// The integrations that bring packages of their own. Each sits behind a package trait named
/// after its product (without "Strata"), and every reference to its packages is guarded by
/// that trait, so that with the trait off SwiftPM fetches and builds none of them. No trait
/// is on by default: a plain dependency on Strata brings only what the core, the two
/// transports and StrataTesting need. An app turns an integration on where it adds Strata,
///
///     .package(url: "…/strata", from: "0.1.0", traits: ["GRPC"])
///
/// and Strata's own build (its tests, demo, bench and docs) turns all of them on:
/// `swift test --enable-all-traits`. scripts/check-adopter.sh checks what an app fetches.
enum Integration: String, CaseIterable {
    case grpc = "GRPC"
    case openAPI = "OpenAPI"
    case sqliteCache = "SQLiteCache"
    case swinject = "Swinject"
    case observability = "Observability"
    case webSocket = "WebSocket"
    case compression = "Compression"

    var trait: Trait {
        let what =
            switch self {
            case .grpc: "StrataGRPC: gRPC calls through Strata's models and policies (grpc-swift 2, SwiftProtobuf)."
            case .openAPI: "StrataOpenAPI: generated OpenAPI clients over Strata, and the other way (OpenAPIRuntime)."
            case .sqliteCache: "StrataSQLiteCache: the HTTP cache, cookies and outbox stored on SQLite (GRDB)."
            case .swinject: "StrataSwinject: a Swinject assembly for the client and its parts (Swinject)."
            case .observability:
                "StrataObservability: spans and metrics per attempt (swift-distributed-tracing, swift-metrics)."
            case .webSocket:
                "StrataAsyncHTTPClient's WebSockets (swift-websocket): Networker.webSocket over SwiftNIO."
            case .compression:
                "StrataCompression: request bodies sent gzip-compressed, streamed (compress-nio, zlib)."
            }
        return .trait(name: rawValue, description: what)
    }

    /// A product only this integration uses: fetched and built only with its trait on.
    func product(_ name: String, package: String) -> Target.Dependency {
        .product(name: name, package: package, condition: .when(traits: [rawValue]))
    }

    /// A product this integration uses on Linux only: its package declares a higher Apple
    /// minimum than Strata's floor, and SwiftPM refuses to plan an Apple build in which any
    /// target of Strata's, a test or an executable too, uses such a product (unless the
    /// dependency's condition leaves that platform out). The code that uses it is under
    /// `#if canImport(…)`, so on Apple platforms it is compiled out.
    /// scripts/check-platform-floors.sh checks every product dependency for this.
    func linuxProduct(_ name: String, package: String) -> Target.Dependency {
        .product(name: name, package: package, condition: .when(platforms: [.linux], traits: [rawValue]))
    }
}

let package = Package(
    name: "Strata",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataURLSession", targets: ["StrataURLSession"]),
        .library(name: "StrataAsyncHTTPClient", targets: ["StrataAsyncHTTPClient"]),
        .library(name: "StrataTesting", targets: ["StrataTesting"]),
        .library(name: "StrataSQLiteCache", targets: ["StrataSQLiteCache"]),
        .library(name: "StrataSwinject", targets: ["StrataSwinject"]),
        .library(name: "StrataObservability", targets: ["StrataObservability"]),
        .library(name: "StrataOpenAPI", targets: ["StrataOpenAPI"]),
        .library(name: "StrataCompression", targets: ["StrataCompression"]),
        // gRPC through Strata's routes, model layers and errors; the only product that links
        // gRPC (grpc-swift 2: macOS 15, iOS 18, tvOS 18, watchOS 11 on Apple platforms).
        .library(name: "StrataGRPC", targets: ["StrataGRPC"]),
    ],
    traits: Set(Integration.allCases.map(\.trait)).union([.default(enabledTraits: [])]),
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // TLS trust on the AsyncHTTPClient transport (TLSConfiguration), and the tests' TLS servers.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The tests' and the demo's certificates, made when they run (already in the graph through swift-nio-extras).
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // Decompression errors, to classify them.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),  // StrataOpenAPI
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),  // StrataGRPC
        // strata-bench only: the `openapi` group's baseline transport.
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        // Request bodies sent gzip-compressed (StrataCompression), and the fault server's gzip bodies.
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        // Graceful server shutdown.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),  // the persistent cache store only
        // WebSockets over SwiftNIO (the WebSocket trait), and the tests' WebSocket server.
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        // The WebSocket server of the tests, the demo's chat room and the bench, on Linux only:
        // it declares macOS 14, iOS 17, tvOS 17 (Integration.linuxProduct).
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),  // StrataSwinject only
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),  // StrataObservability
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),  // StrataObservability
        // StrataGRPC and its demo only. The protoc plugins are not used by the build: the
        // generated code is committed (scripts/generate-grpc.sh).
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // `swift package generate-documentation` (scripts/build-docs.sh); no target uses it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The core: the contracts, the client and its pipeline, models, routing, requests,
        // encodings, concurrency. No transport, and no feature: it cannot import one.
        .target(
            name: "StrataCore",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The features, each in a folder of its own, on top of the core, which this module
        // re-exports: `import Strata` is the whole library for an application.
        .target(
            name: "Strata",
            dependencies: [
                "StrataCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // URLSession transport (Apple platforms and Linux's FoundationNetworking), and
        // `Networker()`: on Linux that client runs over AsyncHTTPClient, which no server's
        // response can crash (FoundationNetworking traps on some), hence the Linux-only
        // dependency.
        .target(
            name: "StrataURLSession",
            dependencies: [
                "Strata",
                .target(name: "StrataAsyncHTTPClient", condition: .when(platforms: [.linux])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ]
        ),
        // AsyncHTTPClient transport: the recommended one on Linux and servers.
        .target(
            name: "StrataAsyncHTTPClient",
            dependencies: [
                "Strata",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),  // NIOConnectionError, to classify connect failures
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOSOCKS", package: "swift-nio-extras"),  // SOCKS proxy errors, to classify them
                .product(name: "NIOSSL", package: "swift-nio-ssl"),  // ServerTrust as TLSConfiguration
                "StrataNIOSSL",
                // WebSockets: the handshake (NIOWebSocket) and the protocol after it (WSCore).
                Integration.webSocket.product("NIOWebSocket", package: "swift-nio"),
                Integration.webSocket.product("WSCore", package: "swift-websocket"),
                Integration.webSocket.product("WSCompression", package: "swift-websocket"),  // permessage-deflate
                Integration.webSocket.product("CompressNIO", package: "compress-nio"),  // its inflation bound
            ]
        ),
        // What the AsyncHTTPClient transport and StrataGRPC share about swift-nio-ssl: its TLS
        // errors read as TLSFailure reasons, trust roots and client identities as it reads them.
        .target(
            name: "StrataNIOSSL",
            dependencies: [
                "Strata",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Mock transport for tests and offline prototyping.
        .target(
            name: "StrataTesting",
            dependencies: [
                "Strata",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // HARRecordingGRPCTransport: gRPC attempts in the same archive as HTTP calls.
                .target(name: "StrataGRPC", condition: .when(traits: [Integration.grpc.rawValue])),
                Integration.grpc.product("GRPCCore", package: "grpc-swift-2"),
            ]
        ),
        // A persistent CacheStore on SQLite (GRDB), a product of its own so that apps that
        // do not want SQLite do not link it.
        .target(
            name: "StrataSQLiteCache",
            dependencies: [
                "Strata",
                Integration.sqliteCache.product("GRDB", package: "GRDB.swift"),
                // A hit reads its rows with SQLite's C API.
                Integration.sqliteCache.product("GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // Swinject registrations for the client, its transport, coders and middleware (the
        // protocol-oriented service layer's dependency injection). The core stays container-free; no transport is linked here.
        .target(
            name: "StrataSwinject",
            dependencies: [
                "Strata",
                Integration.swinject.product("Swinject", package: "Swinject"),
            ]
        ),
        // Spans and metrics for each attempt by the OpenTelemetry HTTP client conventions,
        // through the tracing and metrics APIs (no backend).
        .target(
            name: "StrataObservability",
            dependencies: [
                "Strata",
                Integration.observability.product("Tracing", package: "swift-distributed-tracing"),
                Integration.observability.product("Instrumentation", package: "swift-distributed-tracing"),
                Integration.observability.product("Metrics", package: "swift-metrics"),
            ]
        ),
        // OpenAPI both ways: a generated client sending through a Networker, and OpenAPI
        // client transports and middleware inside Strata's pipeline. The core stays free of
        // OpenAPIRuntime.
        .target(
            name: "StrataOpenAPI",
            dependencies: [
                "Strata",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                Integration.openAPI.product("OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        // Request bodies sent gzip-compressed, streamed through zlib (compress-nio): a feature
        // of its own, so that apps that do not compress their uploads do not link zlib.
        .target(
            name: "StrataCompression",
            dependencies: [
                "Strata",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                Integration.compression.product("CompressNIO", package: "compress-nio"),
                Integration.compression.product("NIOCore", package: "swift-nio"),
            ]
        ),
        // Runs the in-process Hummingbird servers (test and demo) in a ServiceGroup and shuts
        // them down gracefully, never dropping a connection they accepted.
        .target(
            name: "StrataServerLifecycle",
            dependencies: [
                "Strata",  // Deadline.sleep: a cancelled wait leaves no timer behind
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                // Servers over TLS (the trust tests, the demo).
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // An in-process Hummingbird server that echoes what it receives, for the tests.
        .target(
            name: "StrataTestServer",
            dependencies: [
                "Strata",
                "StrataServerLifecycle",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]
        ),
        // Certificates made when the tests and the demo run (a CA, server and client
        // certificates, their pins) and TLS configurations for in-process servers: no
        // private key is committed.
        .target(
            name: "StrataTestCertificates",
            dependencies: [
                "Strata",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // An in-process HTTP/1.1 server on SwiftNIO that misbehaves at the byte level
        // (resets, trickles, bad framing, gzip bombs, redirects), for the transport fault tests.
        .target(
            name: "StrataFaultServer",
            dependencies: [
                "Strata",  // Deadline.sleep
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        // The demo API (users, photos, auth, uploads, failures) served in-process, for
        // `swift run --enable-all-traits strata-demo` and the integration tests.
        .target(
            name: "StrataDemoServer",
            dependencies: [
                "Strata",  // Deadline.sleep: a stream's pause that a client cancels leaves no timer behind
                "StrataServerLifecycle",
                "StrataTestServer",  // FileRoutes: the tour's download, with ranges
                .product(name: "NIOSSL", package: "swift-nio-ssl"),  // the demo API over HTTPS (the Trust section)
                // The upload host (ResumableUploadServer): Apple's implementation of the resumable
                // upload draft, its stored files' SHA-256.
                .product(name: "NIOResumableUpload", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]
        ),
        // The demo API's client, generated from openapi/strata-demo.yaml by
        // scripts/generate-openapi.sh and committed: the generator never runs in the build.
        .target(
            name: "StrataDemoOpenAPI",
            dependencies: [
                Integration.openAPI.product("OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // The guided tour: the demo API's models, routes and endpoints, and the steps
        // that walk through Strata's features against any transport.
        .target(
            name: "StrataDemo",
            dependencies: [
                "Strata",
                "StrataOpenAPI",
                "StrataDemoOpenAPI",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                Integration.openAPI.product("OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Crypto", package: "swift-crypto"),  // the resumable upload's SHA-256, checked
            ]
        ),
        // gRPC calls described by `RequestDescription<GRPCRoute>`, read through the same model
        // layers (protobuf messages as the raw layer), failing with `StrataError`.
        .target(
            name: "StrataGRPC",
            dependencies: [
                "Strata",
                Integration.grpc.product("GRPCCore", package: "grpc-swift-2"),
                Integration.grpc.product("GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                Integration.grpc.product("GRPCProtobuf", package: "grpc-swift-protobuf"),
                Integration.grpc.product("SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "HTTPTypes", package: "swift-http-types"),  // a call's head in StrataError.request
                .product(name: "NIOCore", package: "swift-nio"),  // tells a refused connection from a lost one
                .product(name: "NIOPosix", package: "swift-nio"),
                // A server stream's messages handed to the reader one at a time (back pressure).
                Integration.grpc.product("AsyncAlgorithms", package: "swift-async-algorithms"),
                // GRPCTrust: TLS errors read as TLSFailure, and chains verified for pins and extra roots.
                "StrataNIOSSL",
                Integration.grpc.product("NIOSSL", package: "swift-nio-ssl"),
                Integration.grpc.product("X509", package: "swift-certificates"),
                Integration.grpc.product("Crypto", package: "swift-crypto"),
                Integration.grpc.product("SwiftASN1", package: "swift-asn1"),
                // GRPCTelemetryInterceptor, with both traits on: spans and metrics per attempt.
                .target(name: "StrataObservability", condition: .when(traits: [Integration.observability.rawValue])),
                Integration.observability.product("Tracing", package: "swift-distributed-tracing"),
                Integration.observability.product("Instrumentation", package: "swift-distributed-tracing"),
                Integration.observability.product("Metrics", package: "swift-metrics"),
            ]
        ),
        // The demo's user service over gRPC: the generated code (Generated/, committed), the
        // protobuf messages mapped to the demo's UserEntry/PhotoEntry DTOs, and an in-process
        // server over the demo's users.
        .target(
            name: "StrataGRPCDemo",
            dependencies: [
                "Strata",
                "StrataGRPC",
                "StrataDemo",
                "StrataDemoServer",  // the demo's users (DemoUsers)
                "StrataTestCertificates",  // the Trust section's CA, made when the demo runs
                Integration.grpc.product("GRPCCore", package: "grpc-swift-2"),
                Integration.grpc.product("GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                Integration.grpc.product("GRPCProtobuf", package: "grpc-swift-protobuf"),
                Integration.grpc.product("SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        // `swift run --enable-all-traits strata-demo`: starts the demo server and runs the tour against it.
        .executableTarget(
            name: "strata-demo",
            dependencies: [
                "Strata",
                "StrataURLSession",
                "StrataAsyncHTTPClient",
                "StrataDemoServer",
                "StrataDemo",
                "StrataGRPCDemo",  // the "Second protocol" section
                "StrataObservability",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                Integration.observability.product("InMemoryTracing", package: "swift-distributed-tracing"),  // --trace
                Integration.observability.product("Tracing", package: "swift-distributed-tracing"),
                // The "WebSockets" section's chat room.
                "StrataServerLifecycle",
                Integration.webSocket.product("Hummingbird", package: "hummingbird"),
                Integration.webSocket.linuxProduct("HummingbirdWebSocket", package: "hummingbird-websocket"),
                Integration.webSocket.product("NIOCore", package: "swift-nio"),
            ]
        ),
        // What scripts/check-linkage.sh links: a program using only Strata and
        // StrataAsyncHTTPClient, which must not bring in FoundationNetworking or Swinject.
        .executableTarget(
            name: "strata-linkage-probe",
            dependencies: ["Strata", "StrataAsyncHTTPClient"]
        ),
        // `swift run -c release --enable-all-traits strata-bench`: the pairs harness (raw AsyncHTTPClient and raw
        // URLSession versus Strata over them, the in-memory pipeline, decoding), the soak mode
        // and the callgrind cases. Only the soak runs in CI; see Benchmarks.md.
        .executableTarget(
            name: "strata-bench",
            dependencies: [
                "Strata",
                "StrataAsyncHTTPClient",
                "StrataURLSession",
                "StrataTestServer",
                "StrataDemo",  // the layered-model photo DTOs of the 1 MB workload
                "StrataSQLiteCache",  // the cost of a cache hit from SQLite
                "StrataObservability",  // what telemetry costs when no backend is bootstrapped
                "StrataOpenAPI",  // the `openapi` group: the generated client over a Networker
                "StrataDemoOpenAPI",  // the demo API's generated client
                "StrataCompression",  // --gzip-upload: bytes on the wire and CPU per MB
                "StrataDemoServer",  // --resumable-upload: the NIOResumableUpload server
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),  // the in-bench Transport
                .product(name: "Hummingbird", package: "hummingbird"),  // the bench server's own route
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                // --sse: OpenAPIRuntime's SSE parser, compared.
                Integration.openAPI.product("OpenAPIRuntime", package: "swift-openapi-runtime"),
                // The `openapi` group's baseline: the generated client over its own AHC transport.
                Integration.openAPI.product("OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                // The grpc group: the generated client vs StrataGRPC, against the demo's gRPC server.
                "StrataGRPC",
                "StrataGRPCDemo",
                Integration.grpc.product("GRPCCore", package: "grpc-swift-2"),
                Integration.grpc.product("GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                // --websocket: raw WSClient vs Strata's WebSockets, against an in-process echo server.
                "StrataServerLifecycle",
                Integration.webSocket.linuxProduct("HummingbirdWebSocket", package: "hummingbird-websocket"),
                Integration.webSocket.product("WSClient", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),  // the raw client's and the server's loggers
                Integration.webSocket.product("WSCore", package: "swift-websocket"),
            ]
        ),
        // The load gate the test targets share (they run in one process).
        .target(
            name: "StrataTestSupport",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .target(name: "SQLiteHeaders", condition: .when(platforms: [.linux])),
            ],
            path: "Tests/StrataTestSupport"),
        // Never imported: on Linux, GRDB needs the system SQLite's headers, and a build without
        // them fails deep inside GRDB. Through this target's pkg-config name, SwiftPM says
        // first what to install ("apt-get install libsqlite3-dev").
        .systemLibrary(
            name: "SQLiteHeaders", path: "Tests/SQLiteHeaders", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .testTarget(
            name: "StrataTests",
            dependencies: [
                "Strata",
                "StrataCore",  // @testable: the core's internals
                "StrataTesting",
                "StrataTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "StrataIntegrationTests",
            dependencies: [
                "Strata",
                "StrataCore",  // @testable: the core's internals
                "StrataURLSession",
                "StrataAsyncHTTPClient",
                "StrataTesting",
                "StrataTestServer",
                "StrataFaultServer",
                "StrataDemoServer",
                "StrataDemo",
                "StrataServerLifecycle",
                "StrataTestSupport",
                "StrataTestCertificates",  // the trust tests' CA and certificates
                // A raw WebSocket handshake's accept key; the SHA-256 of compressed uploads.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),  // the trust tests' TLS servers
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // Checks the fault server's gzip bodies; inflates compressed uploads (CompressedUploadTests).
                .product(name: "CompressNIO", package: "compress-nio"),
                "StrataCompression",
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),  // the HTTP/2 server of HTTPVersionTests
                .product(name: "Hummingbird", package: "hummingbird"),
                // The wss test's server.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),  // raw reply servers, shutdown stress test
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),  // the hostile server's records
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                Integration.openAPI.product("OpenAPIRuntime", package: "swift-openapi-runtime"),
                "StrataOpenAPI",  // the generated client's large download
                "StrataDemoOpenAPI",
                "StrataObservability",
                Integration.observability.product("InMemoryTracing", package: "swift-distributed-tracing"),
                Integration.observability.product("Tracing", package: "swift-distributed-tracing"),
                Integration.observability.product("MetricsTestKit", package: "swift-metrics"),
                .product(name: "PropertyBased", package: "swift-property-based"),  // WebSocket targets
                Integration.webSocket.linuxProduct("HummingbirdWebSocket", package: "hummingbird-websocket"),
                // the server's permessage-deflate
                Integration.webSocket.product("WSCompression", package: "swift-websocket"),
                Integration.webSocket.product("WSCore", package: "swift-websocket"),
                Integration.webSocket.product("NIOWebSocket", package: "swift-nio"),
                Integration.webSocket.product("NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // StrataOpenAPI both ways, against the in-process demo server.
        .testTarget(
            name: "StrataOpenAPITests",
            dependencies: [
                "Strata",
                "StrataOpenAPI",
                "StrataAsyncHTTPClient",
                "StrataDemoServer",
                "StrataDemoOpenAPI",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                Integration.openAPI.product("OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Crypto", package: "swift-crypto"),  // the resumable upload's SHA-256, checked
            ]
        ),
        .testTarget(
            name: "StrataSQLiteCacheTests",
            dependencies: [
                "Strata",
                "StrataSQLiteCache",
                "StrataTestSupport",
                // The outbox's kill test: a server that applies each key once, children that deliver.
                "StrataTestServer",
                "StrataAsyncHTTPClient",
                .product(name: "Hummingbird", package: "hummingbird"),
                Integration.sqliteCache.product("GRDB", package: "GRDB.swift"),  // tampers with a store's rows
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // The earlier designs' own code, as they write it, in a module of its own so that
        // its names (`Photo`, `NetworkError`) are theirs.
        .testTarget(
            name: "StrataSeedTests",
            dependencies: ["Strata", "StrataURLSession", "StrataTestServer"]
        ),
        // Every ```swift example of the doc comments and README.md, compiled verbatim
        // (Tests/StrataDocTests/DocExamples.swift, generated by scripts/doc-examples.py).
        .testTarget(
            name: "StrataDocTests",
            dependencies: [
                "Strata",
                "StrataObservability",
                "StrataURLSession",
                "StrataSQLiteCache",
                "StrataSwinject",
                "StrataAsyncHTTPClient",
                // HTTPClient.Configuration in the examples.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                "StrataTesting",
                "StrataTestServer",
                "StrataFaultServer",
                "StrataDemoServer",
                "StrataDemo",
                "StrataServerLifecycle",
                "StrataOpenAPI",
                "StrataDemoOpenAPI",  // `Client`, in StrataOpenAPI's examples
                "StrataCompression",
                .product(name: "Hummingbird", package: "hummingbird"),  // Router, for InProcessServer's example
                .product(name: "Logging", package: "swift-log"),
                Integration.swinject.product("Swinject", package: "Swinject"),  // the README's Swinject example
            ]
        ),
        // StrataSwinject's assembly against the in-process server and the mock transport, and
        // the service layer's own `protocol Endpoint` in a module of its own (it shadows Strata's).
        .testTarget(
            name: "StrataSwinjectTests",
            dependencies: [
                "Strata",
                "StrataSwinject",
                "StrataTesting",
                "StrataTestServer",
                "StrataURLSession",  // the real transport the assembly is given
                Integration.swinject.product("Swinject", package: "Swinject"),
            ]
        ),
        // StrataGRPC against the in-process gRPC demo server.
        .testTarget(
            name: "StrataGRPCTests",
            dependencies: [
                "Strata",
                "StrataGRPC",
                "StrataGRPCDemo",
                "StrataDemo",
                "StrataDemoServer",  // the HTTP demo, whose User the gRPC one must equal
                "StrataAsyncHTTPClient",
                "StrataURLSession",  // the trust tour on URLSession
                "StrataTestSupport",
                "StrataTestCertificates",  // the trust tests' CA and certificates
                "StrataFaultServer",  // TCPRelay: a connection dropped mid-call
                "StrataTesting",  // HARRecordingGRPCTransport
                Integration.observability.product("InMemoryTracing", package: "swift-distributed-tracing"),
                Integration.observability.product("MetricsTestKit", package: "swift-metrics"),
                Integration.grpc.product("GRPCCore", package: "grpc-swift-2"),
                Integration.grpc.product("GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                Integration.grpc.product("SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // StrataCompression's compressor and step on their own (its uploads over both
        // transports are in StrataIntegrationTests, CompressedUploadTests).
        .testTarget(
            name: "StrataCompressionTests",
            dependencies: [
                "Strata",
                "StrataCompression",
                "StrataTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "CompressNIO", package: "compress-nio"),  // inflates what was written
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Runs against httpbin when HTTPBIN_URL is set (scripts/conformance.sh); skipped otherwise.
        .testTarget(
            name: "StrataConformanceTests",
            dependencies: [
                "Strata",
                "StrataURLSession",
                "StrataAsyncHTTPClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
