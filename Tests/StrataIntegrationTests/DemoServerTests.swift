import Foundation
import HTTPTypes
import Strata
import StrataDemo
import StrataDemoServer
import Testing

/// The demo server's answers to requests the tour does not make: bad input and edge cases.
@Suite("The demo server")
struct DemoServerTests {
    /// Sends a request and returns the status and body, whatever the status.
    static func exchange(
        _ networker: Networker, _ base: URL, _ path: String,
        method: HTTPRequest.Method = .get, headers: HTTPFields = [:], body: RequestBody? = nil
    ) async throws -> (status: Int, headers: HTTPFields, body: String) {
        var endpoint = Endpoint<String>(
            RequestDescription(route: try base + path, method: method, headers: headers, body: body))
        endpoint.validation = .acceptAll
        let response = try await networker.response(for: endpoint)
        return (response.head.status.code, response.head.headerFields, response.value)
    }

    @Test("the login wants a form body and the right password; /me wants a valid token")
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func authentication() async throws {
        try await DemoTransportKind.asyncHTTPClient.withServer { server, transport in
            let networker = Networker(transport: transport)
            let base = server.baseURL
            let json = try await Self.exchange(
                networker, base, "/user/auth", method: .post,
                body: .data(Data(#"{"login":"ann","password":"p@ss word"}"#.utf8), contentType: "application/json"))
            #expect(json.status == 400)
            let wrong = try await Self.exchange(
                networker, base, "/user/auth", method: .post,
                body: .data(Data("login=ann&password=nope".utf8), contentType: "application/x-www-form-urlencoded"))
            #expect(wrong.status == 401)
            let missing = try await Self.exchange(
                networker, base, "/user/auth", method: .post,
                body: .data(Data("login=ann".utf8), contentType: "application/x-www-form-urlencoded"))
            #expect(missing.status == 400)

            let anonymous = try await Self.exchange(networker, base, "/me")
            #expect(anonymous.status == 401)
            #expect(anonymous.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            let forged = try await Self.exchange(
                networker, base, "/me", headers: [.authorization: "Bearer demo-forged"])
            #expect(forged.status == 401)
        }
    }

    @Test("bad ids, pages and unknown resources are 400 and 404, with a JSON error")
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func badInput() async throws {
        try await DemoTransportKind.urlSession.withServer { server, transport in
            let networker = Networker(transport: transport)
            let base = server.baseURL
            for (path, status) in [
                ("/users/abc", 400), ("/users/99", 404), ("/users?page=0", 400),
                ("/photos/0", 404), ("/photos/5001", 404),
            ] {
                let answer = try await Self.exchange(networker, base, path)
                #expect(answer.status == status, "\(path)")
                #expect(answer.body.hasPrefix(#"{"error":"#), "\(path)")
            }
            let empty = try await networker.send(DemoAPI(baseURL: base).searchUsers(UserSearch(search: "nobody")))
            #expect(empty.users.isEmpty)
        }
    }

    @Test("registration answers 201 with a Location that serves the new user; invalid users are refused")
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func registration() async throws {
        try await DemoTransportKind.asyncHTTPClient.withServer { server, transport in
            let networker = Networker(transport: transport)
            let api = DemoAPI(baseURL: server.baseURL)
            let user = StrataDemo.User(name: "Yan", age: 33, type: .member, photos: [])
            let created = try await networker.response(for: api.register(user))
            #expect(created.head.status == .created)
            let location = try #require(created.head.headerFields[.location])
            #expect(location == "/users/7")
            #expect(try await networker.send(api.user(id: 7)) == user)

            let invalid = try await Self.exchange(
                networker, server.baseURL, "/user/register", method: .post,
                body: .data(Data(#"{"name":"","age":1,"type":5,"photos":[]}"#.utf8), contentType: "application/json"))
            #expect(invalid.status == 422)
        }
    }

    @Test("the avatar upload reads multipart bodies and refuses anything else")
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func avatarUploads() async throws {
        try await DemoTransportKind.asyncHTTPClient.withServer { server, transport in
            let networker = Networker(transport: transport)
            let api = DemoAPI(baseURL: server.baseURL)

            var form = MultipartFormData()
            form.append(
                Data(repeating: 7, count: 5), name: "file", fileName: "semi;colon \"q\".bin",
                contentType: "application/x-demo")
            let upload = try await networker.send(api.uploadAvatar(userID: 2, form: form))
            #expect(upload.field == "file")
            #expect(upload.filename == "semi;colon %22q%22.bin")
            #expect(upload.bytes == 5)
            #expect(upload.contentType == "application/x-demo")

            var textOnly = MultipartFormData()
            textOnly.append("hello", name: "note")
            let note = try await networker.send(api.uploadAvatar(userID: 2, form: textOnly))
            #expect(note.field == "note" && note.filename == nil && note.bytes == 5)

            let unknownUser = try await Self.exchange(
                networker, server.baseURL, "/users/99/avatar", method: .post, body: .multipart(form))
            #expect(unknownUser.status == 404)
            let notMultipart = try await Self.exchange(
                networker, server.baseURL, "/users/1/avatar", method: .post,
                body: .data(Data("x".utf8), contentType: "text/plain"))
            #expect(notMultipart.status == 400)
            let truncated = try await Self.exchange(
                networker, server.baseURL, "/users/1/avatar", method: .post,
                body: .data(
                    Data("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nabc".utf8),
                    contentType: "multipart/form-data; boundary=b"))
            #expect(truncated.status == 400)
        }
    }

    @Test("each server counts its own /flaky calls")
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func flakyIsPerServer() async throws {
        try await DemoTransportKind.asyncHTTPClient.withServer { first, transport in
            let networker = Networker(transport: transport)
            var statuses: [Int] = []
            for _ in 1...3 { statuses.append(try await Self.exchange(networker, first.baseURL, "/flaky").status) }
            #expect(statuses == [503, 503, 200])

            let second = try await DemoServer.start()
            let fresh = try await Self.exchange(networker, second.baseURL, "/flaky").status
            await second.shutdown()
            #expect(fresh == 503)
        }
    }
}
