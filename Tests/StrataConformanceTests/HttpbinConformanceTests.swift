import Foundation
import HTTPTypes
import Strata
import Testing

// Serialized: httpbin seeds Python's process-wide `random` for `/bytes/N?seed=`, so a
// request served meanwhile on another thread changes the bytes a seed gives.
@Suite(.serialized, .enabled(if: Httpbin.isConfigured, Httpbin.skipReason))
struct HttpbinConformanceTests {
    @Test(arguments: TransportKind.allCases)
    func everyMethod(_ kind: TransportKind) async throws {
        try await kind.withNetworker { networker in
            for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
                let echo = try await networker.send(
                    Endpoint(
                        RequestDescription(route: Httpbin.route("/anything/m"), method: method),
                        decoding: HttpbinEcho.self))
                #expect(echo.method == method.rawValue)
            }
            let head = try await networker.response(
                for: Endpoint<Void>(RequestDescription(route: Httpbin.route("/get"), method: .head)))
            #expect(head.head.status == .ok)
            #expect(head.body.isEmpty)
            let options = try await networker.response(
                for: Endpoint<Void>(RequestDescription(route: Httpbin.route("/get"), method: .options)))
            #expect(options.head.headerFields[.allow]?.contains("GET") == true)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func queryParametersAreWhatHttpbinParsed(_ kind: TransportKind) async throws {
        try await kind.withNetworker { networker in
            let parameters: JSON = ["q": "a b&c=d/é?", "tags": ["x", "y"], "flag": true, "n": 1.5, "emoji": "🦉"]
            let echo = try await networker.send(
                Endpoint(
                    RequestDescription(
                        route: Httpbin.route("/get?fixed=1"), parameters: parameters, encoding: .urlQuery),
                    decoding: HttpbinEcho.self))
            #expect(
                echo.args == [
                    "fixed": .one("1"), "q": .one("a b&c=d/é?"), "tags[]": .many(["x", "y"]),
                    "flag": .one("1"), "n": .one("1.5"), "emoji": .one("🦉"),
                ])
            let noBrackets = try await networker.send(
                Endpoint(
                    RequestDescription(
                        route: Httpbin.route("/get"), parameters: ["id": [1, 2]] as JSON,
                        encoding: .urlQuery(URLEncodedFormEncoder(arrayEncoding: .noBrackets, boolEncoding: .literal))),
                    decoding: HttpbinEcho.self))
            #expect(noBrackets.args == ["id": .many(["1", "2"])])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func formAndJSONBodiesAreWhatHttpbinParsed(_ kind: TransportKind) async throws {
        try await kind.withNetworker { networker in
            let form = try await networker.send(
                Endpoint(
                    RequestDescription(
                        route: Httpbin.route("/post"), method: .post,
                        parameters: ["login": "ann", "password": "p@ss word+/é", "user": ["name": "A"]] as JSON,
                        encoding: .formURL),
                    decoding: HttpbinEcho.self))
            #expect(form.form == ["login": .one("ann"), "password": .one("p@ss word+/é"), "user[name]": .one("A")])
            #expect(form.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")

            let body: JSON = ["name": "Ann", "age": 31, "tags": ["a", "ü"], "nested": ["ok": true, "none": nil]]
            let json = try await networker.send(
                Endpoint(
                    RequestDescription(route: Httpbin.route("/put"), method: .put, parameters: body),
                    decoding: HttpbinEcho.self))
            #expect(json.json == body)
            #expect(json.headers["Content-Type"] == "application/json")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func multipartFilesAndFields(_ kind: TransportKind) async throws {
        try await kind.withNetworker { networker in
            var multipart = MultipartFormData()
            multipart.append("Ann ✓", name: "name")
            multipart.append(
                Data("file body\nline 2".utf8), name: "doc", fileName: "doc.txt", contentType: "text/plain")
            let echo = try await networker.send(
                Endpoint(
                    RequestDescription(route: Httpbin.route("/post"), method: .post, body: .multipart(multipart)),
                    decoding: HttpbinEcho.self))
            #expect(echo.form == ["name": .one("Ann ✓")])
            #expect(echo.files == ["doc": "file body\nline 2"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func headersReachTheServer(_ kind: TransportKind) async throws {
        try await kind.withNetworker(middleware: [HeadersMiddleware([.userAgent: "Strata-Conformance"])]) { networker in
            var headers = HTTPFields()
            headers[HTTPField.Name("X-Custom")!] = "v1"
            let echo = try await networker.send(
                Endpoint(
                    RequestDescription(route: Httpbin.route("/headers"), headers: headers),
                    decoding: HttpbinHeaders.self))
            #expect(echo.headers["User-Agent"] == "Strata-Conformance")
            #expect(echo.headers["X-Custom"] == "v1")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func statusCodes(_ kind: TransportKind) async throws {
        try await kind.withNetworker { networker in
            for code in [200, 201, 202, 204] {
                let response = try await networker.response(
                    for: Endpoint<Data>(RequestDescription(route: Httpbin.route("/status/\(code)"))))
                #expect(response.head.status.code == code)
            }
            for code in [304, 400, 401, 403, 404, 418, 429, 500, 502, 503] {
                let error = await #expect(throws: StrataError.self) {
                    try await networker.send(
                        Endpoint<Data>(RequestDescription(route: Httpbin.route("/status/\(code)"))))
                }
                #expect(error?.status?.code == code)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func redirectsAreFollowed(_ kind: TransportKind) async throws {
        try await kind.withNetworker { networker in
            for path in ["/redirect/3", "/relative-redirect/2", "/absolute-redirect/2"] {
                let echo = try await networker.send(
                    Endpoint(RequestDescription(route: Httpbin.route(path)), decoding: HttpbinEcho.self))
                #expect(echo.url.hasSuffix("/get"), "\(path) ended at \(echo.url)")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func redirectMethodAndBodyRules(_ kind: TransportKind) async throws {
        try await kind.withNetworker { networker in
            for (status, keepsMethod) in [(301, false), (302, false), (303, false), (307, true), (308, true)] {
                let route = Httpbin.route("/redirect-to?url=%2Fanything&status_code=\(status)")
                let endpoint = Endpoint(
                    RequestDescription(route: route, method: .post, parameters: ["k": "v"] as JSON),
                    decoding: HttpbinEcho.self)
                let echo = try await networker.send(endpoint)
                if keepsMethod {
                    #expect(echo.method == "POST", "\(status)")
                    #expect(echo.json == ["k": "v"], "\(status) resends the body")
                } else {
                    #expect(echo.method == "GET", "\(status)")
                    #expect(echo.data == "", "\(status)")
                }
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func basicAndBearerAuth(_ kind: TransportKind) async throws {
        try await kind.withNetworker { networker in
            var headers = HTTPFields()
            headers[.authorization] = "Basic " + Data("user:passwd".utf8).base64EncodedString()
            let basic = try await networker.send(
                Endpoint<JSON>(RequestDescription(route: Httpbin.route("/basic-auth/user/passwd"), headers: headers)))
            #expect(basic == ["authenticated": true, "user": "user"])
            let wrong = await #expect(throws: StrataError.self) {
                try await networker.send(
                    Endpoint<JSON>(RequestDescription(route: Httpbin.route("/basic-auth/user/other"), headers: headers))
                )
            }
            #expect(wrong?.status?.code == 401)
        }
        try await kind.withNetworker(middleware: [HeadersMiddleware.bearerToken { "t0k3n" }]) { networker in
            let bearer = try await networker.send(Endpoint<JSON>(RequestDescription(route: Httpbin.route("/bearer"))))
            #expect(bearer == ["authenticated": true, "token": "t0k3n"])
        }
    }

    /// Basic credentials from the step and from the endpoint modifier: the right ones get
    /// `200`, wrong ones `401`; a redirect on the same origin keeps them, one to another
    /// origin (`localhost` for `127.0.0.1`, same server) withholds them, so httpbin answers `401`.
    @Test(arguments: TransportKind.allCases)
    func basicAuthenticationFromTheStepAndTheModifier(_ kind: TransportKind) async throws {
        let base = try #require(Httpbin.baseURL)
        let otherOrigin = "http://localhost:\(base.port ?? 80)/basic-auth/user/passwd"
        let encodedOther = try #require(otherOrigin.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        func endpoint(_ path: String, password: String?) -> Endpoint<JSON> {
            let endpoint = Endpoint<JSON>(RequestDescription(route: Httpbin.route(path)))
            return password.map { endpoint.basicAuthentication(user: "user", password: $0) } ?? endpoint
        }
        func check(_ networker: Networker, password: String?) async throws {
            let authenticated: JSON = ["authenticated": true, "user": "user"]
            #expect(try await networker.send(endpoint("/basic-auth/user/passwd", password: password)) == authenticated)
            let sameOrigin = "/redirect-to?url=%2Fbasic-auth%2Fuser%2Fpasswd"
            #expect(try await networker.send(endpoint(sameOrigin, password: password)) == authenticated)
            for path in ["/basic-auth/user/other", "/redirect-to?url=\(encodedOther)"] {
                let refused = await #expect(throws: StrataError.self, "\(path)") {
                    try await networker.send(endpoint(path, password: password))
                }
                #expect(refused?.status?.code == 401, "\(path)")
            }
        }
        let step = HeadersMiddleware.basicAuthentication(user: "user", password: "passwd")
        try await kind.withNetworker(middleware: [step]) { try await check($0, password: nil) }
        try await kind.withNetworker { try await check($0, password: "passwd") }
    }

    @Test(arguments: TransportKind.allCases)
    func compressedResponsesAreDecompressed(_ kind: TransportKind) async throws {
        try await kind.withNetworker { networker in
            let gzip = try await networker.send(Endpoint<JSON>(RequestDescription(route: Httpbin.route("/gzip"))))
            #expect(gzip["gzipped"] == true)
            let deflate = try await networker.send(Endpoint<JSON>(RequestDescription(route: Httpbin.route("/deflate"))))
            #expect(deflate["deflated"] == true)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func delayBeyondTheDeadline(_ kind: TransportKind) async throws {
        try await kind.withNetworker { networker in
            var endpoint = Endpoint<JSON>(RequestDescription(route: Httpbin.route("/delay/5")))
            endpoint.timeout = .milliseconds(500)
            let start = ContinuousClock.now
            let error = await #expect(throws: StrataError.self) { try await networker.send(endpoint) }
            #expect(error?.isTimeout == true, "got \(String(describing: error))")
            #expect(start.duration(to: .now) < .seconds(4))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func bytesResponseHeadersAndUTF8(_ kind: TransportKind) async throws {
        try await kind.withNetworker { networker in
            let bytes = try await networker.send(
                Endpoint<Data>(RequestDescription(route: Httpbin.route("/bytes/4096?seed=7"))))
            #expect(bytes.count == 4096)
            let again = try await networker.send(
                Endpoint<Data>(RequestDescription(route: Httpbin.route("/bytes/4096?seed=7"))))
            #expect(again == bytes)

            let headers = try await networker.response(
                for: Endpoint<JSON>(
                    RequestDescription(
                        route: Httpbin.route("/response-headers"),
                        parameters: ["X-Strata": "yes", "X-Two": "2"] as JSON, encoding: .urlQuery)))
            #expect(headers.head.headerFields[HTTPField.Name("X-Strata")!] == "yes")
            #expect(headers.value["X-Two"] == "2")

            let text = try await networker.send(
                Endpoint<String>(RequestDescription(route: Httpbin.route("/encoding/utf8"))))
            #expect(text.contains("∮ E⋅da = Q"))
            #expect(text.contains("ሰማይ አይታረስ ንጉሥ አይከሰስ።"))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func streamedLines(_ kind: TransportKind) async throws {
        try await kind.withNetworker { networker in
            let (head, body) = try await networker.stream(
                Endpoint<Data>(RequestDescription(route: Httpbin.route("/stream/20"))))
            #expect(head.status == .ok)
            var chunks = 0
            var data = Data()
            for try await chunk in body {
                chunks += 1
                data.append(chunk)
            }
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
            #expect(lines.count == 20)
            #expect(chunks >= 1)
            #expect(!body.isReplayable, "\(kind) streams the body as it arrives")
        }
    }

    /// Without a jar no transport keeps cookies (URLSession's `HTTPCookieStorage` is off in
    /// the sessions Strata makes); with a ``CookieJar`` both keep httpbin's, set on the
    /// `302` of `/cookies/set` and sent on the hop it redirects to, and `/cookies/delete`
    /// clears them.
    @Test(arguments: TransportKind.allCases)
    func cookies(_ kind: TransportKind) async throws {
        let flavour = "oat-" + UUID().uuidString.prefix(8)
        let set = Endpoint<JSON>(RequestDescription(route: Httpbin.route("/cookies/set?flavour=\(flavour)&size=2")))
        let read = Endpoint<JSON>(RequestDescription(route: Httpbin.route("/cookies")))
        try await kind.withNetworker { networker in
            let redirected = try await networker.send(set)
            let sent = try await networker.send(read)
            #expect(redirected == ["cookies": [:]], "no jar: nothing kept")
            #expect(sent == ["cookies": [:]], "no jar: nothing kept")
        }
        let jar = MemoryCookieJar()
        try await kind.withNetworker(middleware: [CookieMiddleware(jar: jar)]) { networker in
            let redirected = try await networker.send(set)
            let sent = try await networker.send(read)
            #expect(redirected == ["cookies": ["flavour": .string(String(flavour)), "size": "2"]])
            #expect(sent == ["cookies": ["flavour": .string(String(flavour)), "size": "2"]])
            #expect(jar.allCookies.map(\.name).sorted() == ["flavour", "size"])
            let deleted = try await networker.send(
                Endpoint<JSON>(RequestDescription(route: Httpbin.route("/cookies/delete?flavour"))))
            #expect(deleted == ["cookies": ["size": "2"]])
            #expect(jar.allCookies.map(\.name) == ["size"])
        }
    }
}

/// httpbin's `/headers` answer.
struct HttpbinHeaders: Decodable, Sendable {
    let headers: [String: String]
}
