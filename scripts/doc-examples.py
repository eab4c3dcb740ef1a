#!/usr/bin/env python3
"""Writes Tests/StrataDocTests/DocExamples.swift: every ```swift example of the `///`
doc comments under Sources/, of the DocC articles (Sources/*/Documentation.docc/**.md) and
of README.md, compiled verbatim by the test suite.

    python3 scripts/doc-examples.py           # regenerate the file
    python3 scripts/doc-examples.py --check   # regenerate, build, and name the example behind each diagnostic

Each example is placed where it compiles as written:
- statements (and local types) go into `func example_<file>_<n>() async throws { … }`;
- examples made only of type declarations go into a caseless `enum DocExample_<file>_<n>`;
- examples that declare an extension go at file scope (their top-level names must be
  unique among such examples: give a doc example a distinct name if two collide).
Leading `import` lines are hoisted to the top of the generated file. Names an example uses
without declaring them (the caller's own values: `networker`, `route`, `User`, …) come from
CONTEXT below, keyed by "path#n" (n counts the ```swift blocks of that file from 1; in
README.md and the articles, "path#slug" for the first block under a heading and
"path#slug-n" for the n-th). Top-level
`let`/`var` names an example declares get an `_ = name` after it, so an example that only
shows a declaration compiles without an unused-value warning.

A README or article block that is not Swift source (```sh, plain ```) is skipped by its fence language;
a ```swift block that cannot compile is skipped only with the line
`<!-- doc-examples: skip (reason) -->` right before its fence (in a doc comment,
`/// <!-- doc-examples: skip (reason) -->`).

Tests/StrataDocTests/DocExamplesAreCurrentTests.swift extracts the examples by the same
rules and fails when this file is stale. Python 3 standard library only.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "Tests" / "StrataDocTests" / "DocExamples.swift"
SOURCES = ROOT / "Sources"
README = ROOT / "README.md"


# The in-process servers (on Hummingbird 2) and the availability they need.
SERVER_TYPES = re.compile(r"\b(DemoServer|TestServer|FaultServer|InProcessServer|Router)\b")
SERVER_AVAILABILITY = "@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)"


def article_paths() -> list[Path]:
    """The DocC articles and module pages, whose ```swift blocks compile like README's."""
    return sorted(SOURCES.glob("*/Documentation.docc/**/*.md"), key=lambda p: p.relative_to(ROOT).as_posix())


# Modules an example may import (the StrataDocTests target depends on each of them).
IMPORTS = [
    "AsyncHTTPClient",
    "Foundation",
    "Logging",
    "Strata",
    "StrataAsyncHTTPClient",
    "StrataCompression",
    "StrataDemo",
    "StrataDemoServer",
    "StrataFaultServer",
    "StrataObservability",
    "StrataOpenAPI",
    "StrataDemoOpenAPI",
    "StrataServerLifecycle",
    "StrataTestServer",
    "StrataTesting",
    "StrataURLSession",
    "StrataSQLiteCache",
    "StrataSwinject",
    "Swinject",
    "Testing",
]
# Only the names the server examples use: Hummingbird has a `URLEncodedFormEncoder` of its
# own, which an unqualified `URLEncodedFormEncoder()` in a file importing both modules
# silently resolves to (it leaves brackets unescaped).
SCOPED_IMPORTS = ["import class Hummingbird.Router"]

SKIP_MARKER = re.compile(r"^<!-- doc-examples: skip \((.+)\) -->$")
DOC_OPEN = re.compile(r"^\s*/// ```swift\s*$")
DOC_CLOSE = re.compile(r"^\s*/// ```\s*$")
DOC_LINE = re.compile(r"^\s*///( ?)(.*)$")
README_OPEN = re.compile(r"^```swift\s*$")
README_CLOSE = re.compile(r"^```\s*$")
IMPORT_LINE = re.compile(r"^import [A-Za-z_][A-Za-z0-9_]*\s*(//.*)?$")


@dataclass
class Context:
    """The placeholders one example uses: the caller's own values, never a fix."""

    #: Declarations placed before the example (inside its function or enum, or at file scope).
    declarations: str = ""
    #: The function's parameters, for an example a test runs with values of its own.
    parameters: str = ""
    #: `(type, expression)` the function returns after the example, for a test to check.
    returns: tuple[str, str] | None = None


#: The placeholder of the many examples that name only a client.
A_NETWORKER = Context(
    declarations="""
    let networker = Networker(transport: MockTransport())
    """
)

# A client, a receipt type and a file, for the resumable upload examples.
A_RESUMABLE_UPLOAD = Context(
    declarations="""
    struct Receipt: Codable, Sendable { var id: Int }
    let networker = Networker(transport: MockTransport())
    let clipURL = FileManager.default.temporaryDirectory.appendingPathComponent("clip.mp4")
    """
)

# Keyed by "path#n". Keep each entry to what the example names but does not declare.
CONTEXT: dict[str, Context] = {
    # --- Strata ---
    "Sources/StrataCore/Client/Networker+Requests.swift#1": Context(
        declarations="""
        struct User: Decodable { let name: String }
        let networker = Networker(transport: MockTransport())
        let route = "https://api.example.com/users/42"
        let request = RequestDescription(route: route)
        """
    ),
    "Sources/StrataCore/Client/Networker.swift#1": Context(
        declarations="""
        let transport = MockTransport()
        struct UserEntry: Codable, RawMappable { typealias Raw = JSON; let name: String }
        struct User: DTODecodable { let name: String; static func from(dto: UserEntry) throws -> User { User(name: dto.name) } }
        let request = RequestDescription(route: "https://api.example.com/users/42")
        """
    ),
    "Sources/Strata/Features/WebSockets/DecodedWebSocketMessages.swift#1": Context(
        declarations="""
        struct PriceUpdate: Decodable, Sendable { let symbol: String; let price: Double }
        let networker = Networker(transport: MockTransport())
        let socket = try await networker.webSocket(RequestDescription(route: "wss://example.com/prices"))
        """
    ),
    "Sources/Strata/Features/WebSockets/WebSocket.swift#1": A_NETWORKER,
    "Sources/Strata/Features/WebSockets/WebSocketReconnection.swift#1": Context(
        declarations="""
        let networker = Networker(transport: MockTransport())
        let request = RequestDescription(route: "wss://example.com/prices")
        """
    ),
    "Sources/StrataCore/Request/BodyParsing.swift#1": Context(
        declarations="""
        struct UserEntry: Codable, RawMappable { typealias Raw = JSON; let name: String }
        struct User: DTODecodable { let name: String; static func from(dto: UserEntry) throws -> User { User(name: dto.name) } }
        let bytes = Data(#"{"name":"Ann"}"#.utf8)
        """
    ),
    "Sources/StrataCore/Concurrency/DeadlineTimer.swift#1": Context(
        declarations="""
        let context = MiddlewareContext(deadline: .now + .seconds(1))
        struct Tokens: Sendable { func fresh() async throws -> String { "token" } }
        let tokens = Tokens()
        """
    ),
    "Sources/StrataCore/Interface/StrataError.swift#1": Context(
        declarations="""
        struct User: Decodable { let name: String }
        struct APIError: Decodable { let message: String }
        let networker = Networker(transport: MockTransport())
        let endpoint = Endpoint(RequestDescription(route: "https://api.example.com/users/42"), decoding: User.self)
        """
    ),
    "Sources/StrataCore/Encoding/Multipart/MultipartFormData.swift#1": Context(
        declarations="""
        let photoURL = URL(fileURLWithPath: "/tmp/photo.jpg")
        var request = HTTPRequest(method: .post, scheme: "https", authority: "api.example.com", path: "/photos")
        func upload(_ chunk: Data) {}
        """
    ),
    "Sources/StrataCore/Encoding/ParametersEncoding.swift#1": Context(
        declarations="""
        let url = URL(string: "https://api.example.com/search")
        """
    ),
    "Sources/StrataCore/Encoding/URLEncodedForm/URLEncodedFormEncoder.swift#1": Context(
        returns=("String", "query"),
    ),
    "Sources/StrataCore/Models/JSON.swift#1": Context(
        returns=("(name: String?, firstTag: JSON?)", "(name, firstTag)"),
    ),
    "Sources/StrataCore/Models/JSON+Foundation.swift#1": Context(
        returns=("Int?", "age"),
    ),
    "Sources/Strata/Features/Resilience/Array+Resilient.swift#1": Context(
        declarations="""
        let transport = MockTransport()
        let tokens = BearerTokenProvider(BearerToken("saved")) { _ in BearerToken("renewed") }
        """
    ),
    "Sources/Strata/Features/Authentication/AuthenticationMiddleware.swift#1": Context(
        declarations="""
        struct AuthAPI: Sendable { func renew(_ token: String) async throws -> BearerToken { BearerToken("renewed") } }
        let authAPI = AuthAPI()
        let savedToken = "saved"
        let transport = MockTransport()
        """
    ),
    "Sources/Strata/Features/Authentication/BearerTokenProvider.swift#1": Context(
        declarations="""
        struct AuthAPI: Sendable { func renew(_ token: String) async throws -> BearerToken { BearerToken("renewed") } }
        let authAPI = AuthAPI()
        let saved = (access: "saved", expiry: Date(timeIntervalSince1970: 0))
        """
    ),
    "Sources/Strata/Features/Authentication/CredentialProvider.swift#1": Context(
        declarations="""
        struct Keychain: Sendable { func accessToken() async throws -> String { "saved" } }
        struct AuthAPI: Sendable { func renew(_ token: String) async throws -> String { "renewed" } }
        static let keychain = Keychain()
        static let authAPI = AuthAPI()
        """
    ),
    "Sources/Strata/Features/Cookies/CookieJar.swift#1": Context(
        declarations="""
        let transport = MockTransport()
        """
    ),
    "Sources/Strata/Features/Headers/HeadersMiddleware.swift#1": Context(
        declarations="""
        actor TokenStore { var accessToken: String? = "saved" }
        let tokenStore = TokenStore()
        """
    ),
    "Sources/Strata/Features/Authentication/BasicCredentials.swift#1": Context(
        declarations="""
        let transport = MockTransport()
        let secret = "s3cret"
        let reportEndpoint = Endpoint<Data>(RequestDescription(route: "https://api.example.com/report"))
        """
    ),
    "Sources/StrataCore/Interface/Trust/TrustPolicy.swift#1": Context(
        declarations="""
        let companyCA = "-----BEGIN CERTIFICATE-----\\nMAA=\\n-----END CERTIFICATE-----\\n"
        """
    ),
    "Sources/StrataCore/Interface/Trust/ServerTrust.swift#1": Context(
        declarations="""
        let primaryPin = try PublicKeyPin(sha256: Data(count: 32))
        let backupPin = try PublicKeyPin(sha256: Data(repeating: 1, count: 32))
        let companyRoots = [try TLSCertificate(der: Data([0x30, 0x00]))]
        """
    ),
    "Sources/Strata/Features/ConcurrencyLimits/ConcurrencyLimitMiddleware.swift#1": Context(
        declarations="""
        let transport = MockTransport()
        let avatarEndpoint = Endpoint<Data>(RequestDescription(route: "https://images.example.com/ada.png"))
        """
    ),
    "Sources/Strata/Features/Coalescing/CoalescingMiddleware.swift#1": Context(
        declarations="""
        let transport = MockTransport()
        struct Profile: Decodable { let name: String }
        struct Badge: Decodable { let unread: Int }
        """
    ),
    "Sources/Strata/Features/Outbox/Outbox.swift#1": A_NETWORKER,
    "Sources/Strata/Features/Outbox/Reachability.swift#1": A_NETWORKER,
    "Sources/Strata/Features/RateLimits/RateLimitMiddleware.swift#1": Context(
        declarations="""
        let transport = MockTransport()
        """
    ),
    "Sources/Strata/Features/Logging/HTTPRequest+Curl.swift#1": Context(
        declarations="""
        let request = HTTPRequest(method: .post, scheme: "https", authority: "api.example.com", path: "/users?notify=1")
        let body = MessageBody(#"{"name":"Ada"}"#)
        """
    ),
    "Sources/Strata/Features/Retry/RetryRule.swift#1": Context(
        declarations="""
        struct Receipt: Decodable { let id: String }
        struct Job: Decodable { let state: String }
        let chargeRequest = RequestDescription(route: "https://api.example.com/charges", method: .post)
        let jobRequest = RequestDescription(route: "https://api.example.com/jobs/7")
        """
    ),
    "Sources/StrataCore/Models/DTODecodable.swift#1": Context(
        declarations="""
        struct Photo { let id: String; let image: String }
        typealias PhotoEntry = DocExample_StrataCore_Models_RawDecodable_1.PhotoEntry
        """
    ),
    "Sources/StrataCore/Request/Endpoint+Constructors.swift#1": Context(
        declarations="""
        struct Photo { init(with json: [String: Any]?) throws {} }
        let url = URL(fileURLWithPath: "/photos/1")
        """
    ),
    "Sources/StrataCore/Request/Endpoint+Modifiers.swift#1": Context(
        declarations="""
        struct User: Decodable { let name: String }
        let networker = Networker(transport: MockTransport())
        let request = RequestDescription(route: "https://api.example.com/users/42")
        let traceID = "trace-1"
        """
    ),
    # The same `Photo` as DTODecodable.swift's example (file-scope placeholders are declared
    # once), which makes it an app model that `decoding:` accepts.
    "Sources/StrataCore/Request/Endpoint.swift#1": Context(
        declarations="""
        struct Photo { let id: String; let image: String }
        """
    ),
    "Sources/StrataCore/Request/HeaderList.swift#1": Context(
        declarations="""
        let route = "https://api.example.com/users"
        let endpoint = Endpoint<JSON>(RequestDescription(route: route))
        let traceID = "trace-1"
        """
    ),
    "Sources/StrataCore/Request/RequestDescription+HeaderList.swift#1": Context(
        declarations="""
        let route = "https://api.example.com/users"
        """
    ),
    "Sources/StrataCore/Request/RequestDescription.swift#1": Context(
        declarations="""
        typealias RegistrationRoute = DocExample_StrataCore_Routing_URLRouteProvider_1.RegistrationRoute
        """
    ),
    "Sources/StrataCore/Request/RequestDescription.swift#2": Context(
        declarations="""
        let url = URL(string: "https://api.example.com/users")
        """
    ),
    # --- StrataAsyncHTTPClient ---
    # Run by DocExamplesRunTests against the demo server.
    "Sources/StrataAsyncHTTPClient/AsyncHTTPClientTransport.swift#1": Context(
        parameters="request: HTTPRequest",
        returns=("(status: Int, bytes: Int?)", "(response.status.code, data?.count)"),
    ),
    "Sources/StrataObservability/TelemetryMiddleware.swift#1": Context(
        declarations="""
        let transport = MockTransport()
        """
    ),
    # --- StrataTesting ---
    "Sources/StrataTesting/MockResponse+Constructors.swift#1": Context(
        declarations="""
        struct UserDTO: Encodable { let name: String; let age: Int }
        let mock = MockTransport()
        """
    ),
    "Sources/StrataTesting/MockResponse.swift#1": Context(
        declarations="""
        let mock = MockTransport()
        """
    ),
    "Sources/StrataTesting/MockTransport+Stubs.swift#1": Context(
        declarations="""
        let mock = MockTransport()
        """
    ),
    # --- demo and test servers ---
    "Sources/StrataDemo/Routes/DemoAPI.swift#1": Context(
        declarations="""
        let server = try await DemoServer.start()
        let networker = Networker(transport: MockTransport())
        """
    ),
    "Sources/StrataDemo/Tour/DemoTour.swift#1": Context(
        declarations="""
        let server = try await DemoServer.start()
        """
    ),
    "Sources/StrataTestServer/AuthRoutes.swift#1": Context(
        parameters="transport: any Transport",
        returns=("(body: String, accepted: Int)", "(body, auth.accepted)"),
    ),
    "Sources/StrataServerLifecycle/InProcessServer.swift#1": Context(
        declarations="""
        let router = Router()
        let logger = Logger(label: "demo")
        """
    ),
    "Sources/StrataCompression/RequestCompression.swift#1": Context(
        declarations="""
        let rows = Data("id,name\\n1,Ada\\n".utf8)
        """
    ),
    # --- README (keyed by section: "#slug", "#slug-2" for its second block) ---
    "README.md#quick-start": Context(
        returns=(
            "(url: String?, contentType: String?, body: Data?, userURL: String?)",
            "(encoded.head.url?.absoluteString, encoded.head.headerFields[.contentType], "
            "encoded.body?.bufferedData, try userEndpoint.encoded().head.url?.absoluteString)",
        ),
    ),
    "Sources/Strata/Documentation.docc/SendingAndErrors.md#overview": Context(
        declarations="""
        let transport = MockTransport()
        struct User: Decodable { let name: String }
        actor Tokens { var current: String? = "saved" }
        let tokens = Tokens()
        let userEndpoint = Endpoint(RequestDescription(route: "http://example.com/user/42"), decoding: User.self)
        """
    ),
    # Run by DocExamplesRunTests: `print` is the app showing a value, recorded here.
    "Sources/Strata/Documentation.docc/SendingAndErrors.md#errors": Context(
        parameters="networker: Networker",
        declarations="""
        struct User: Decodable { let name: String }
        struct APIProblem: Decodable { let error: String }
        struct MyParseError: Error {}
        let userEndpoint = Endpoint(RequestDescription(route: "http://example.com/user/42"), decoding: User.self)
        var printed: [String] = []
        func print(_ value: Any) { printed.append("\\(value)") }
        """,
        returns=("[String]", "printed"),
    ),
    "Sources/Strata/Documentation.docc/Testing.md#stubs": Context(
        declarations="""
        struct User: Decodable { let name: String }
        let userEndpoint = Endpoint(RequestDescription(route: "http://example.com/user/42"), decoding: User.self)
        """,
        returns=("(name: String, paths: [String])", "(user.name, mock.requests.map(\\.path))"),
    ),
    "Sources/Strata/Documentation.docc/Migrating.md#overview": Context(
        parameters="transport: MockTransport, api: URL?, traceID: String",
        declarations="""
        struct UserEntry: Codable, RawMappable { typealias Raw = JSON; let id: Int; let name: String }
        struct User: DTODecodable {
            let name: String
            static func from(dto: UserEntry) throws -> User { User(name: dto.name) }
        }
        """,
        returns=("(user: String, fresh: String, gone: String?)", "(user.name, fresh.name, gone?.name)"),
    ),
    "Sources/Strata/Documentation.docc/Migrating.md#overview-2": Context(
        returns=(
            "(search: String?, create: Data?, signup: Data?)",
            "(try search.encoded().head.url?.absoluteString, try create.encoded().body?.bufferedData, "
            "try signup.encoded().body?.bufferedData)",
        ),
    ),
    "Sources/Strata/Documentation.docc/TrustAndTLS.md#overview": Context(
        declarations="""
        let companyCA = "-----BEGIN CERTIFICATE-----\\nMAA=\\n-----END CERTIFICATE-----\\n"
        let clientChain = companyCA
        let clientKey = "-----BEGIN PRIVATE KEY-----\\nMAA=\\n-----END PRIVATE KEY-----\\n"
        """
    ),
    "Sources/Strata/Documentation.docc/TrustAndTLS.md#why-a-server-was-refused": Context(
        declarations="""
        let networker = Networker(transport: MockTransport())
        let endpoint = Endpoint<Data>(RequestDescription(route: "https://api.example.com/report"))
        """
    ),
    "Sources/Strata/Documentation.docc/OfflineWrites.md#overview": A_NETWORKER,
    "Sources/Strata/Documentation.docc/OfflineWrites.md#platforms": A_NETWORKER,
    "Sources/Strata/Documentation.docc/Resilience.md#overview": Context(
        declarations="""
        let transport = MockTransport()
        let savedToken = "saved"
        @Sendable func renewToken(_ token: String) async throws -> BearerToken { BearerToken("renewed-\\(token)") }
        """,
        returns=("Networker", "networker"),
    ),
    # --- DocC articles (keyed as README: "#slug", "#slug-2" for a section's second block) ---
    # Run by DocExamplesRunTests against the in-process demo server.
    "Sources/Strata/Documentation.docc/GettingStarted.md#send-a-request": Context(
        parameters="baseURL: URL",
        declarations="""
        typealias User = DocExample_Strata_Documentation_docc_GettingStarted_describe_the_response.User
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\\($0)" }.joined(separator: " ")) }
        """,
        returns=("[String]", "printed"),
    ),
    "Sources/Strata/Documentation.docc/SendingAndErrors.md#errors-2": Context(
        parameters="networker: Networker",
        declarations="""
        struct User: Decodable { let name: String }
        let userEndpoint = Endpoint(RequestDescription(route: "http://example.com/user/42"), decoding: User.self)
        var printed: [String] = []
        func print(_ value: Any) { printed.append("\\(value)") }
        """,
        returns=("[String]", "printed"),
    ),
    "Sources/Strata/Documentation.docc/RequestsRoutesAndEncodings.md#parameters-and-encodings": Context(
        declarations="""
        typealias RegistrationRoute = DocExample_Strata_Documentation_docc_RequestsRoutesAndEncodings_routes.RegistrationRoute
        """,
        returns=(
            "(url: String?, contentType: String?, body: Data?)",
            "(encoded.head.url?.absoluteString, encoded.head.headerFields[.contentType], encoded.body?.bufferedData)",
        ),
    ),
    "Sources/Strata/Documentation.docc/RequestsRoutesAndEncodings.md#parameters-and-encodings-2": Context(
        returns=("Data?", "try signup.encoded().body?.bufferedData"),
    ),
    "Sources/Strata/Documentation.docc/RequestsRoutesAndEncodings.md#endpoints-and-per-call-settings": Context(
        returns=("Endpoint<JSON>", "endpoint"),
    ),
    # --- Caching ---
    "Sources/Strata/Features/Caching/CacheControl.swift#1": Context(
        declarations="""
        let response = HTTPResponse(status: .ok, headerFields: [.cacheControl: "public, max-age=60"])
        """,
        returns=("Int?", "maxAge"),
    ),
    "Sources/Strata/Features/Caching/CacheMiddleware.swift#1": Context(
        declarations="""
        struct Feed: Decodable, Sendable { let items: [String] }
        let transport = MockTransport()
        let retry = RetryMiddleware()
        let auth = AuthenticationMiddleware(BearerTokenProvider(BearerToken("t")) { _ in BearerToken("t2") })
        let feedEndpoint = Endpoint(RequestDescription(route: "https://api.example.com/feed"), decoding: Feed.self)
        """
    ),
    "Sources/Strata/Features/Caching/CacheOutcome.swift#1": Context(
        declarations="""
        struct Feed: Decodable, Sendable { let items: [String] }
        let networker = Networker(transport: MockTransport())
        let endpoint = Endpoint(RequestDescription(route: "https://api.example.com/feed"), decoding: Feed.self)
        func showBanner(_ text: String) {}
        """
    ),
    "Sources/Strata/Features/Caching/CacheStrategy.swift#1": Context(
        declarations="""
        struct Feed: Decodable, Sendable { let items: [String] }
        let networker = Networker(transport: MockTransport())
        let feedEndpoint = Endpoint(RequestDescription(route: "https://api.example.com/feed"), decoding: Feed.self)
        struct Flags: Decodable, Sendable { let beta: Bool }
        let flagsEndpoint = Endpoint(RequestDescription(route: "https://api.example.com/flags"), decoding: Flags.self)
        """
    ),
    "Sources/Strata/Features/Caching/Networker+CacheThenRemote.swift#1": Context(
        declarations="""
        struct Feed: Decodable, Sendable { let items: [String] }
        let networker = Networker(transport: MockTransport())
        let feedEndpoint = Endpoint(RequestDescription(route: "https://api.example.com/feed"), decoding: Feed.self)
        func render(_ feed: Feed, source: CacheOutcome.Source?) {}
        """
    ),
    "Sources/StrataSQLiteCache/SQLiteCacheStore.swift#1": Context(
        declarations="""
        let cachesDirectory = URL(fileURLWithPath: NSTemporaryDirectory())
        """
    ),
    "Sources/StrataSQLiteCache/SQLiteOutboxStore.swift#1": Context(
        declarations="""
        let supportDirectory = URL(fileURLWithPath: NSTemporaryDirectory())
        let networker = Networker(transport: MockTransport())
        """
    ),
    "Sources/StrataSQLiteCache/SQLiteCookieJar.swift#1": Context(
        declarations="""
        let supportDirectory = URL(fileURLWithPath: NSTemporaryDirectory())
        let transport = MockTransport()
        """
    ),
    "Sources/StrataSwinject/StrataAssembly.swift#1": Context(
        declarations="""
        let mock = MockTransport()
        """
    ),
    # `Client` is the demo API's generated client (StrataDemoOpenAPI).
    "Sources/StrataOpenAPI/NetworkerTransport.swift#1": Context(
        declarations="""
        let transport = MockTransport()
        let serverURL = URL(fileURLWithPath: "/")
        """
    ),
    "Sources/StrataOpenAPI/OpenAPITransport.swift#1": Context(
        declarations="""
        let someClientTransport = NetworkerTransport(Networker(transport: MockTransport()))
        """
    ),
    "Sources/StrataOpenAPI/OpenAPIMiddleware.swift#1": Context(
        declarations="""
        let someClientMiddleware = StrataClientMiddleware(LoggingMiddleware())
        let transport = MockTransport()
        """
    ),
    "Sources/StrataOpenAPI/StrataClientMiddleware.swift#1": Context(
        declarations="""
        let serverURL = URL(fileURLWithPath: "/")
        let transport = NetworkerTransport(Networker(transport: MockTransport()))
        """
    ),
    # `Client` is the demo API's generated client (StrataDemoOpenAPI); run by DocExamplesRunTests against the demo server.
    "Sources/Strata/Documentation.docc/OpenAPI.md#overview": Context(
        parameters="transport: any Transport, serverURL: URL",
        returns=("(name: String, age: Int)", "(user.name, user.age)"),
    ),
    "Sources/Strata/Documentation.docc/OpenAPI.md#overview-2": Context(
        declarations="""
        let serverURL = URL(fileURLWithPath: "/")
        let clientTransport = NetworkerTransport(Networker(transport: MockTransport()))
        let clientMiddleware = StrataClientMiddleware(LoggingMiddleware())
        let transport = MockTransport()
        """
    ),
    "Sources/Strata/Documentation.docc/Streams.md#overview": Context(
        declarations="""
        let networker = Networker(transport: MockTransport())
        let prompt = ["prompt": "Hello"]
        """
    ),
    "Sources/Strata/Documentation.docc/Streams.md#overview-2": Context(
        declarations="""
        struct LogEntry: Decodable, Sendable { let message: String }
        let networker = Networker(transport: MockTransport())
        let exportEndpoint = Endpoint<Data>(RequestDescription(route: "https://api.example.com/export"))
        """
    ),
    "Sources/Strata/Features/Streams/Networker+Events.swift#1": Context(
        declarations="""
        let networker = Networker(transport: MockTransport())
        let feedRequest = RequestDescription(route: "https://api.example.com/feed")
        """
    ),
    "Sources/Strata/Features/Streams/DecodedEvents.swift#1": Context(
        declarations="""
        struct ChatChunk: Decodable, Sendable { let text: String }
        let networker = Networker(transport: MockTransport())
        let endpoint = Endpoint<Data>(RequestDescription(route: "https://api.example.com/chat"))
        """
    ),
    "Sources/Strata/Features/Pagination/Networker+Pages.swift#1": Context(
        declarations="""
        struct User: Decodable, Sendable { let name: String }
        let networker = Networker(transport: MockTransport())
        let usersEndpoint = Endpoint(RequestDescription(route: "https://api.example.com/users"), decoding: [User].self)
        """
    ),
    "Sources/Strata/Documentation.docc/Pagination.md#overview": Context(
        declarations="""
        struct User: Decodable, Sendable { let name: String }
        struct FeedPage: Decodable, Sendable { let items: [String]; let nextCursor: String? }
        let networker = Networker(transport: MockTransport())
        """
    ),
    "Sources/Strata/Features/Transfers/Networker+Download.swift#1": Context(
        declarations="""
        let networker = Networker(transport: MockTransport())
        let videoEndpoint = Endpoint<Data>(RequestDescription(route: "https://api.example.com/videos/7"))
        let moviesFolder = FileManager.default.temporaryDirectory
        """
    ),
    "Sources/Strata/Features/Transfers/Networker+Upload.swift#1": Context(
        declarations="""
        struct Receipt: Codable, Sendable { var id: Int }
        let networker = Networker(transport: MockTransport())
        let photoURL = FileManager.default.temporaryDirectory.appendingPathComponent("photo.jpg")
        """
    ),
    "Sources/Strata/Features/Transfers/ResumableUploads/Networker+ResumableUpload.swift#1": A_RESUMABLE_UPLOAD,
    "Sources/Strata/Documentation.docc/Transfers.md#resumable-uploads": A_RESUMABLE_UPLOAD,
    "Sources/Strata/Documentation.docc/Observability.md#overview": Context(
        declarations="""
        let transport = MockTransport()
        """
    ),
    # Run by DocExamplesRunTests: recorded from the demo server, then replayed.
    "Sources/Strata/Documentation.docc/Testing.md#recordings": Context(
        parameters="transport: any Transport, baseURL: URL",
        declarations="""
        struct User: Decodable, Sendable { let name: String }
        let userEndpoint = Endpoint(RequestDescription(route: try baseURL + "/users/1"), decoding: User.self)
        """,
        returns=("(recorded: Int, user: String)", "(try HAR(contentsOf: URL(fileURLWithPath: \"/tmp/user.har\")).log.entries.count, user.name)"),
    ),
    "Sources/StrataTesting/HAR/HARFixture.swift#1": Context(
        declarations="""
        struct User: Decodable, Sendable { let name: String }
        let userEndpoint = Endpoint(RequestDescription(route: "https://api.example.com/users/1"), decoding: User.self)
        let transport = MockTransport()
        let fixtures = FileManager.default.temporaryDirectory
        """
    ),
    "Sources/StrataTesting/HAR/HARRecordingTransport.swift#1": Context(
        declarations="""
        let transport = MockTransport()
        struct User: Decodable, Sendable { let name: String }
        let userEndpoint = Endpoint(RequestDescription(route: "https://api.example.com/users/1"), decoding: User.self)
        """
    ),
    "Sources/StrataTesting/HAR/HARReplayTransport.swift#1": Context(
        declarations="""
        struct User: Decodable, Sendable { let name: String }
        let userEndpoint = Endpoint(RequestDescription(route: "https://api.example.com/users/1"), decoding: User.self)
        let fixture = FileManager.default.temporaryDirectory.appendingPathComponent("user.har")
        """
    ),
    "Sources/Strata/Documentation.docc/Transfers.md#overview": A_NETWORKER,
    # Run by DocExamplesRunTests: the demo server's file, cut halfway and resumed in the call.
    "Sources/Strata/Documentation.docc/Transfers.md#overview-2": Context(
        parameters="networker: Networker, movieEndpoint: Endpoint<Data>",
        returns=("DownloadResult", "result"),
    ),
    "Sources/Strata/Documentation.docc/Transfers.md#compressed-uploads": Context(
        declarations="""
        let exportURL = URL(fileURLWithPath: "/tmp/export.jsonl")
        """
    ),
    "Sources/Strata/Documentation.docc/Migrating.md#from-alamofires-websocketrequest-2": A_NETWORKER,
    "Sources/Strata/Documentation.docc/WebSockets.md#overview": A_NETWORKER,
    "Sources/Strata/Documentation.docc/WebSockets.md#the-handshake-is-a-call": Context(
        declarations="""
        let savedToken = "saved"
        @Sendable func renewToken(_ token: String) async throws -> BearerToken { BearerToken("renewed-\\(token)") }
        """
    ),
    "Sources/Strata/Documentation.docc/WebSockets.md#messages-as-models": A_NETWORKER,
    "Sources/Strata/Documentation.docc/WebSockets.md#reconnection": Context(
        declarations="""
        let networker = Networker(transport: MockTransport())
        let feed = RequestDescription(route: "wss://stream.example.com/feed")
        """
    ),
    "Sources/Strata/Documentation.docc/Caching.md#overview": Context(
        declarations="""
        let transport = MockTransport()
        struct Feed: Decodable, Sendable { let items: [String] }
        let auth = AuthenticationMiddleware(BearerTokenProvider(BearerToken("t")) { _ in BearerToken("t2") })
        let feedEndpoint = Endpoint(RequestDescription(route: "https://api.example.com/feed"), decoding: Feed.self)
        """
    ),
}


@dataclass
class Example:
    path: str  # relative to ROOT
    index: int  # 1-based among the file's ```swift blocks (README: among its section's)
    line: int  # 1-based line of the first code line in the file
    lines: list[str]
    section: str = ""  # README: the slug of the heading above the block
    imports: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        """`n` in a source file; `slug` or `slug-n` in the README, stable when sections move."""
        if not self.section:
            return str(self.index)
        return self.section if self.index == 1 else f"{self.section}-{self.index}"

    @property
    def key(self) -> str:
        return f"{self.path}#{self.name}"

    @property
    def symbol(self) -> str:
        stem = self.path.removeprefix("Sources/").removesuffix(".swift").removesuffix(".md")
        return re.sub(r"[^A-Za-z0-9]+", "_", f"{stem}_{self.name}")


def slug(heading: str) -> str:
    """A heading as a lowercase anchor: `## Quick start` is `quick-start`."""
    words = re.sub(r"[^a-z0-9 -]", "", heading.lower()).split()
    return "-".join(words)


class GenerationError(Exception):
    pass


def hoist_imports(example: Example) -> None:
    """Moves the example's leading `import X` lines out of its body."""
    while example.lines and (IMPORT_LINE.match(example.lines[0]) or (example.imports and example.lines[0] == "")):
        line = example.lines.pop(0)
        if line:
            module = line.split("//")[0].split()[1]
            if module not in IMPORTS:
                raise GenerationError(
                    f"{example.path}:{example.line}: example {example.name} imports {module}, which "
                    f"StrataDocTests does not depend on: add it to IMPORTS in scripts/doc-examples.py "
                    f"and to the target in Package.swift"
                )
            example.imports.append(module)
        example.line += 1


def doc_comment_examples(path: Path) -> list[Example]:
    rel = path.relative_to(ROOT).as_posix()
    examples: list[Example] = []
    current: Example | None = None
    blocks = 0  # every ```swift block counts, skipped or not, so keys stay put
    skipping = False
    previous = ""
    for number, text in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if current is None:
            if DOC_OPEN.match(text):
                blocks += 1
                marker = DOC_LINE.match(previous)
                skipping = bool(marker and SKIP_MARKER.match(marker.group(2).strip()))
                current = Example(rel, blocks, number + 1, [])
            previous = text
            continue
        if DOC_CLOSE.match(text):
            if not skipping:
                examples.append(current)
            current = None
            previous = text
            continue
        match = DOC_LINE.match(text)
        if match is None:
            raise GenerationError(f"{rel}:{number}: the ```swift example opened at line {current.line - 1} is not closed inside its /// comment")
        current.lines.append(match.group(2))
    if current is not None:
        raise GenerationError(f"{rel}:{current.line - 1}: the ```swift example is not closed")
    return examples


def readme_examples(path: Path) -> tuple[list[Example], list[tuple[Example, str]]]:
    rel = path.relative_to(ROOT).as_posix()
    examples: list[Example] = []
    skipped: list[tuple[Example, str]] = []
    current: Example | None = None
    skip_reason: str | None = None
    previous = ""
    section = "top"
    counts: dict[str, int] = {}
    for number, text in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if current is None:
            if text.startswith("#"):
                section = slug(text.lstrip("#"))
            if README_OPEN.match(text):
                counts[section] = counts.get(section, 0) + 1
                current = Example(rel, counts[section], number + 1, [], section)
                marker = SKIP_MARKER.match(previous.strip())
                skip_reason = marker.group(1) if marker else None
            elif text.startswith("```"):
                # Another language: skip to its closing fence.
                current = Example(rel, 0, number + 1, [])
                skip_reason = "not swift"
            previous = text
            continue
        if README_CLOSE.match(text):
            if skip_reason is None:
                examples.append(current)
            elif current.index:
                skipped.append((current, skip_reason))
            current = None
            previous = text
            continue
        current.lines.append(text)
    if current is not None:
        raise GenerationError(f"{rel}:{current.line - 1}: the code block is not closed")
    return examples, skipped


def strip_code(line: str) -> str:
    """The line without string literals and `//` comments, for counting braces."""
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    return line.split("//", 1)[0]


DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*"
    r"(struct|enum|class|actor|protocol|typealias|extension|func)\s+([A-Za-z_][A-Za-z0-9_]*)"
)
BINDING = re.compile(r"^(?:let|var)\s+(?:([A-Za-z_][A-Za-z0-9_]*)|\(([^)]*)\))")


def top_level(lines: list[str]) -> list[str]:
    """The lines that start at brace depth 0."""
    depth, result = 0, []
    for line in lines:
        code = strip_code(line)
        if depth == 0 and code.strip():
            result.append(code.strip())
        depth += code.count("{") - code.count("}")
        depth = max(depth, 0)
    return result


def classify(example: Example) -> str:
    """`file` for extensions, `namespace` for type declarations only, `function` otherwise."""
    heads = top_level(example.lines)
    kinds = [DECLARATION.match(line) for line in heads]
    if any(kind and kind.group(1) == "extension" for kind in kinds):
        return "file"
    if heads and all(kind and kind.group(1) in {"struct", "enum", "class", "actor", "protocol", "typealias"} for kind in kinds):
        return "namespace"
    return "function"


def bound_names(example: Example) -> list[str]:
    """Names of the `let`/`var` bindings at the example's top level."""
    names: list[str] = []
    for line in top_level(example.lines):
        match = BINDING.match(line)
        if not match:
            continue
        if match.group(1):
            names.append(match.group(1))
        else:
            names += [name.strip() for name in match.group(2).split(",") if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name.strip())]
    return [name for name in names if name != "_"]


def declared_types(lines: list[str]) -> list[str]:
    names = []
    for line in top_level(lines):
        match = DECLARATION.match(line)
        if match and match.group(1) != "extension":
            names.append(match.group(2))
    return names


def dedent(text: str) -> list[str]:
    lines = text.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return [line[indent:] for line in lines]


def indented(lines: list[str], prefix: str) -> list[str]:
    return [prefix + line if line else "" for line in lines]


def render(examples: list[Example], skipped: list[tuple[Example, str]]) -> str:
    unknown = set(CONTEXT) - {example.key for example in examples}
    if unknown:
        raise GenerationError(
            "CONTEXT in scripts/doc-examples.py has entries for examples that no longer exist: "
            + ", ".join(sorted(unknown))
            + " (an example was removed or moved: re-key or delete the entry)"
        )
    out = [
        "// swift-format-ignore-file",
        "// (the examples stay verbatim, as their doc comments have them)",
        "// generated by scripts/doc-examples.py — do not edit",
        "//",
        "// Every ```swift example in the `///` comments under Sources/, the DocC articles and README.md, compiled",
        "// verbatim (between the `doc-example:` markers). Regenerate with",
        "// `python3 scripts/doc-examples.py`; DocExamplesAreCurrentTests fails when this file is stale.",
    ]
    if skipped:
        out.append("//")
        out.append("// Skipped by a `doc-examples: skip` marker:")
        for example, reason in skipped:
            out.append(f"// - {example.key} (line {example.line}): {reason}")
    out.append("")
    out += sorted([f"import {module}" for module in IMPORTS] + SCOPED_IMPORTS, key=lambda line: line.split()[-1])

    file_scope_names: dict[str, str] = {}
    file_scope_context: set[str] = set()
    current_path = None
    for example in examples:
        context = CONTEXT.get(example.key, Context())
        declarations = dedent(context.declarations)
        kind = classify(example)
        if example.path != current_path:
            current_path = example.path
            out += ["", f"// MARK: - {example.path}"]
        out.append("")
        location = f"`{example.path}`, example {example.name} (line {example.line})"
        # An example that starts an in-process server (Hummingbird 2) is available where
        # the server is; scripts/check-availability.py checks the rest.
        needs_server = SERVER_TYPES.search("\n".join([context.parameters] + declarations + example.lines))
        availability = [SERVER_AVAILABILITY] if needs_server else []
        marker = [f"// doc-example: {example.key}"] + example.lines + ["// end doc-example"]
        if kind == "file":
            if context.parameters or context.returns:
                raise GenerationError(f"{location}: a file-scope example takes no parameters and returns nothing")
            for name in declared_types(example.lines):
                if name in file_scope_names:
                    raise GenerationError(
                        f"{location} declares `{name}` at file scope, as {file_scope_names[name]} does: "
                        f"give one of the doc examples a distinct name"
                    )
                file_scope_names[name] = example.key
            new_context = [line for line in declarations if line not in file_scope_context]
            file_scope_context.update(declarations)
            out.append(f"// {location}, at file scope (it declares an extension).")
            out += new_context + marker
        elif kind == "namespace":
            if context.parameters or context.returns:
                raise GenerationError(f"{location}: a declarations-only example takes no parameters and returns nothing")
            out.append(f"/// {location}.")
            out += availability
            out.append(f"enum DocExample_{example.symbol} {{")
            out += indented(declarations + marker, "    ")
            out.append("}")
        else:
            returns = f" -> {context.returns[0]}" if context.returns else ""
            out.append(f"/// {location}.")
            out += availability
            out.append(f"func example_{example.symbol}({context.parameters}) async throws{returns} {{")
            body = declarations + marker + [f"_ = {name}" for name in bound_names(example)]
            if context.returns:
                body.append(f"return {context.returns[1]}")
            out += indented(body, "    ")
            out.append("}")
    out.append("")
    return "\n".join(out)


def collect() -> tuple[list[Example], list[tuple[Example, str]]]:
    examples: list[Example] = []
    for path in sorted(SOURCES.rglob("*.swift"), key=lambda p: p.relative_to(ROOT).as_posix()):
        examples += doc_comment_examples(path)
    readme, skipped = readme_examples(README)
    examples += readme
    for path in article_paths():
        article, article_skipped = readme_examples(path)
        examples += article
        skipped += article_skipped
    for example in examples:
        hoist_imports(example)
        if not any(line.strip() for line in example.lines):
            raise GenerationError(f"{example.path}:{example.line}: example {example.name} is empty")
    return examples, skipped


def check(examples: list[Example]) -> int:
    """Builds the tests and names the example behind each diagnostic in the generated file."""
    generated = OUTPUT.read_text(encoding="utf-8").split("\n")
    owner: dict[int, tuple[Example | None, int]] = {}
    by_key = {example.key: example for example in examples}
    current: Example | None = None
    start = 0
    for number, text in enumerate(generated, start=1):
        stripped = text.strip()
        if stripped.startswith("// doc-example: "):
            current, start = by_key[stripped.removeprefix("// doc-example: ")], number
        elif stripped == "// end doc-example":
            current = None
        elif current is not None:
            owner[number] = (current, number - start - 1)
    build = subprocess.run(
        ["swift", "build", "--build-tests"], cwd=ROOT, capture_output=True, text=True
    )
    diagnostic = re.compile(r"^(.*DocExamples\.swift):(\d+):(\d+): (error|warning): (.*)$")
    problems = 0
    seen = set()
    for text in (build.stdout + build.stderr).split("\n"):
        match = diagnostic.match(text)
        if not match or text in seen:
            continue
        seen.add(text)
        problems += 1
        number = int(match.group(2))
        example, offset = owner.get(number, (None, 0))
        if example is None:
            where = f"Tests/StrataDocTests/DocExamples.swift:{number} (a placeholder from CONTEXT, near it)"
        else:
            where = f"{example.path}:{example.line + offset} (example {example.name})"
        print(f"{where}: {match.group(4)}: {match.group(5)}")
    if build.returncode != 0 and problems == 0:
        print(build.stdout[-5000:] + build.stderr[-5000:])
        return 1
    if problems:
        print(
            f"{problems} diagnostic(s) in the doc examples: fix the example (the docs must show working code), "
            "or add the caller's placeholder values it names to CONTEXT in scripts/doc-examples.py",
            file=sys.stderr,
        )
        return 1
    print(f"{len(examples)} doc examples compile without warnings")
    return 0


def main() -> int:
    try:
        examples, skipped = collect()
        text = render(examples, skipped)
    except GenerationError as error:
        print(f"doc-examples: {error}", file=sys.stderr)
        return 1
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    if not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != text:
        OUTPUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUTPUT.relative_to(ROOT)}: {len(examples)} examples, {len(skipped)} skipped")
    else:
        print(f"{OUTPUT.relative_to(ROOT)} is current: {len(examples)} examples, {len(skipped)} skipped")
    if "--check" in sys.argv[1:]:
        return check(examples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
