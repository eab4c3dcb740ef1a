import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Strata
import StrataGRPC
import StrataGRPCDemo

// The demo's app model, not the bench's own `User` (Models.swift).
import struct StrataDemo.Photo
import struct StrataDemo.User

// The `grpc` group: a unary `GetUser(1)` against the demo's gRPC server (in this process,
// on 127.0.0.1), by the generated grpc-swift client (bytes → `UserMessage`, its name
// checked) and by `GRPCNetworker` (bytes → `UserMessage` → the demo's `UserEntry` DTO →
// its app `User`, the same model code the HTTP demo reads JSON into). Each side has a
// client and a connection of its own, the call's deadline 60 s, no interceptors. A second
// pair retries `unavailable`: the raw client with grpc-swift's retry policy, Strata with
// `GRPCRetryInterceptor` (which runs that same retry executor, deciding through pushback).
// The streaming workloads: `UploadPhotos`, a client stream of 100 uploads (the raw client
// writes the generated messages; Strata writes `PhotoUpload` app models, each mapped to its
// message, and reads the summary into `UploadReport`), and `Chat`, a bidirectional call
// writing 100 lines while it reads the 200 answers (Strata from and into `ChatLine`).

/// The `upload` and `chat` workloads of one side of the `grpc` group.
typealias GRPCStreamRequests = (upload: @Sendable () async throws -> Void, chat: @Sendable () async throws -> Void)

/// The request sets of the `grpc` group.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
struct GRPCRequestSets: Sendable {
    /// The generated `Strata_Demo_V1_UserService.Client` over a plain `GRPCClient`.
    var raw: RequestSet
    /// The same, with grpc-swift's retry policy for `unavailable` (its retry executor).
    var rawRetrying: RequestSet
    /// `GRPCNetworker` with no interceptors.
    var strata: RequestSet
    /// `GRPCNetworker` with a `GRPCRetryInterceptor` (`GetUser` idempotent).
    var retrying: RequestSet

    /// The user the demo's `GetUser(1)` answers.
    static let expectedName = "Ann"

    /// Starts the demo gRPC server and three clients to it, runs `body` with their
    /// request sets, then stops the clients and the server whether or not it succeeded.
    static func with(_ body: (GRPCRequestSets) async throws -> Void) async throws {
        let server = try await DemoGRPCServer.start()
        print(
            "grpc: the demo gRPC server runs in this process, \(server.host):\(server.port): "
                + "the CPU column includes its work on both sides")
        func transport() throws -> HTTP2ClientTransport.Posix {
            try HTTP2ClientTransport.Posix(
                target: .ipv4(address: server.host, port: server.port), transportSecurity: .plaintext)
        }
        var failure: (any Error)?
        var connections: [Task<Void, any Error>] = []
        var shutdowns: [@Sendable () -> Void] = []
        do {
            let client = GRPCClient(transport: try transport())
            var configuration = GRPCNetworker.Configuration()
            if !StrataBench.deadlineOn { configuration.timeout = nil }
            let strata = GRPCNetworker(transport: try transport(), configuration: configuration)
            let retrying = GRPCNetworker(
                transport: try transport(),
                interceptors: [
                    GRPCRetryInterceptor(idempotentMethods: [Strata_Demo_V1_UserService.Method.GetUser.descriptor])
                ],
                configuration: configuration)
            connections = [
                Task { try await client.runConnections() },
                Task { try await strata.runConnections() },
                Task { try await retrying.runConnections() },
            ]
            shutdowns = [
                { client.beginGracefulShutdown() }, { strata.beginGracefulShutdown() },
                { retrying.beginGracefulShutdown() },
            ]
            try await body(
                GRPCRequestSets(
                    raw: rawRequests(Strata_Demo_V1_UserService.Client(wrapping: client), retrying: false)
                        .streaming(try rawStreams(Strata_Demo_V1_UserService.Client(wrapping: client))),
                    rawRetrying: rawRequests(Strata_Demo_V1_UserService.Client(wrapping: client), retrying: true),
                    strata: try strataRequests(strata).streaming(strataStreams(strata)),
                    retrying: try strataRequests(retrying)))
        } catch {
            failure = error
        }
        for shutdown in shutdowns { shutdown() }
        for connection in connections { _ = await connection.result }
        await server.shutdown()
        if let failure { throw failure }
    }

    /// The generated client: `getUser` with a 60 s timeout, the message's name checked;
    /// `retrying`, under grpc-swift's retry policy for `unavailable` (at most 5 attempts, as
    /// `GRPCRetryInterceptor`'s calls).
    private static func rawRequests(
        _ client: Strata_Demo_V1_UserService.Client<HTTP2ClientTransport.Posix>, retrying: Bool
    ) -> RequestSet {
        let options = {
            var options = CallOptions.defaults
            options.timeout = .seconds(60)
            if retrying {
                options.executionPolicy = .retry(
                    GRPCCore.RetryPolicy(
                        maxAttempts: 5, initialBackoff: .milliseconds(100), maxBackoff: .seconds(10),
                        backoffMultiplier: 2, retryableStatusCodes: [.unavailable]))
            }
            return options
        }()
        let request = Strata_Demo_V1_GetUserRequest.with { $0.id = 1 }
        return requestSet {
            try check(user: try await client.getUser(request, options: options).name)
        }
    }

    /// `GRPCNetworker.send` of a `GRPCEndpoint` decoding the demo's app `User`.
    private static func strataRequests(_ networker: GRPCNetworker) throws -> RequestSet {
        let endpoint = GRPCEndpoint(
            try RequestDescription(
                route: GRPCRoute(Strata_Demo_V1_UserService.Method.GetUser.descriptor),
                message: Strata_Demo_V1_GetUserRequest.with { $0.id = 1 }),
            decoding: StrataDemo.User.self)
        return requestSet {
            try check(user: try await networker.send(endpoint).name)
        }
    }

    /// The uploads of the `upload` workload: 100 new photos for user 3.
    static let uploads = (1...100).map {
        PhotoUpload(userID: 3, photo: Photo(id: "bench-\($0)", image: "https://img.example/bench/\($0).jpg"))
    }
    /// The lines of the `chat` workload.
    static let lines = (1...100).map { ChatLine(author: "bench", text: "line \($0)") }

    /// The generated client's `uploadPhotos` and `chat`, writing the generated messages.
    private static func rawStreams(
        _ client: Strata_Demo_V1_UserService.Client<HTTP2ClientTransport.Posix>
    ) throws -> GRPCStreamRequests {
        let options = {
            var options = CallOptions.defaults
            options.timeout = .seconds(60)
            return options
        }()
        let uploads = try uploads.map { try $0.toDTO() }
        let lines = try lines.map { try $0.toDTO() }
        return (
            upload: {
                let summary = try await client.uploadPhotos(options: options) { writer in
                    for upload in uploads { try await writer.write(upload) }
                }
                try check(added: Int(summary.added))
            },
            chat: {
                let count = try await client.chat(options: options) { writer in
                    for line in lines { try await writer.write(line) }
                } onResponse: { response in
                    var count = 0
                    for try await _ in response.messages { count += 1 }
                    return count
                }
                try check(answers: count)
            }
        )
    }

    /// `GRPCNetworker`'s client stream and bidirectional call, from and into app models.
    private static func strataStreams(
        _ networker: GRPCNetworker
    ) -> GRPCStreamRequests {
        let upload = GRPCEndpoint(
            RequestDescription(route: GRPCRoute(Strata_Demo_V1_UserService.Method.UploadPhotos.descriptor)),
            decoding: UploadReport.self)
        let chat = GRPCEndpoint(
            RequestDescription(route: GRPCRoute(Strata_Demo_V1_UserService.Method.Chat.descriptor)),
            decoding: ChatLine.self)
        return (
            upload: {
                let report = try await networker.send(
                    upload,
                    messages: GRPCRequestMessages(writing: PhotoUpload.self) { writer in
                        for upload in uploads { try await writer.write(upload) }
                    })
                try check(added: report.added)
            },
            chat: {
                var count = 0
                let messages = GRPCRequestMessages(writing: ChatLine.self) { writer in
                    for line in lines { try await writer.write(line) }
                }
                for try await _ in networker.stream(chat, messages: messages) { count += 1 }
                try check(answers: count)
            }
        )
    }

    private static func check(added: Int) throws {
        guard added == uploads.count else { throw BenchError(description: "\(added) photos added") }
    }

    private static func check(answers: Int) throws {
        guard answers == 2 * lines.count else { throw BenchError(description: "\(answers) chat answers") }
    }

    /// `user` as the user workload; the streaming ones are added by ``RequestSet/streaming(_:)``.
    private static func requestSet(user: @escaping @Sendable () async throws -> Void) -> RequestSet {
        let none: @Sendable () async throws -> Void = {
            throw BenchError(description: "the grpc group makes gRPC calls only")
        }
        return RequestSet(user: user, photos: none, form: none)
    }

    private static func check(user name: String) throws {
        guard name == expectedName else { throw BenchError(description: "unexpected user \(name)") }
    }
}

extension RequestSet {
    /// The set with `streams` as its `upload` and `chat` workloads.
    func streaming(
        _ streams: GRPCStreamRequests
    ) -> RequestSet {
        var set = self
        set.upload = streams.upload
        set.chat = streams.chat
        return set
    }
}
