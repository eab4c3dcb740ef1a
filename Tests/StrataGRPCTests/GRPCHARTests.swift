import Foundation
import GRPCCore
import HTTPTypes
import Strata
import StrataDemo
import StrataGRPC
import StrataGRPCDemo
import StrataTesting
import SwiftProtobuf
import Testing

/// ``HARRecordingGRPCTransport`` against the in-process gRPC demo server: the exact entries
/// an archive gets for a retried unary call and for server streams, as HTTP carries them.
@Suite("HARRecordingGRPCTransport", .isTimed)
struct GRPCHARTests {
    /// The bytes of a recorded body (text, or Base64 with its encoding).
    static func bytes(_ text: String?, encoding: String?) -> Data? {
        guard let text else { return nil }
        return encoding == "base64" ? Data(base64Encoded: text) : Data(text.utf8)
    }

    /// `message` as gRPC frames it: a zero flag, a big-endian length, the bytes.
    static func framed(_ message: some SwiftProtobuf.Message) throws -> Data {
        let bytes: Data = try message.serializedBytes()
        return Data([0, 0, 0, 0, UInt8(bytes.count)]) + bytes
    }

    /// The value of the field `name` among `fields`, when there is one.
    static func value(_ name: String, in fields: [HAR.NameValue]) -> String? {
        fields.first { $0.name == name }?.value
    }

    @Test("Each attempt of a retried unary call is an entry: POST over HTTP/2, framed messages, its grpc-status")
    func retriedUnaryCall() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let recorder = HARRecorder()
        let getUser = Strata_Demo_V1_UserService.Method.GetUser.descriptor
        let interceptors = [any ClientInterceptor].resilient(
            retry: RetryPolicy(initialBackoff: .milliseconds(5)), idempotentMethods: [getUser])
        try await withDemo(serving: FaultService(), interceptors: interceptors, recordingInto: recorder) {
            networker, port in
            let message = Strata_Demo_V1_GetUserRequest.with { $0.id = 1 }
            var request = try RequestDescription(route: GRPCRoute(getUser), message: message)
            request.headers[HTTPField.Name("x-demo-flaky")!] = "har"
            request.headers[.authorization] = "Bearer secret"
            let user = try await networker.send(GRPCEndpoint(request, decoding: User.self))
            #expect(user.name == "Ann")

            let entries = recorder.har.log.entries
            #expect(entries.count == 3)
            for entry in entries {
                #expect(entry.request.method == "POST")
                #expect(entry.request.url == "http://127.0.0.1:\(port)/strata.demo.v1.UserService/GetUser")
                #expect(entry.request.httpVersion == "HTTP/2")
                #expect(entry.request.headers.first == HAR.NameValue(name: "content-type", value: "application/grpc"))
                #expect(Self.value("x-demo-flaky", in: entry.request.headers) == "har")
                #expect(Self.value("authorization", in: entry.request.headers) == "REDACTED")
                #expect(entry.request.postData?.mimeType == "application/grpc")
                #expect(
                    Self.bytes(entry.request.postData?.text, encoding: entry.request.postData?.encoding)
                        == (try Self.framed(message)))
                #expect(entry.request.bodySize == 7)
                #expect(entry.response.status == 200)
                #expect(entry.response.httpVersion == "HTTP/2")
            }
            #expect(entries.map { Self.value("grpc-status", in: $0.response.headers) } == ["14", "14", "0"])
            // The answer: one framed message, the user the call decoded.
            let answer = try #require(entries.last?.response.content)
            let body = try #require(Self.bytes(answer.text, encoding: answer.encoding))
            #expect(answer.mimeType == "application/grpc")
            #expect(body.count == answer.size)
            #expect(Array(body.prefix(5)) == [0, 0, 0, 0, UInt8(body.count - 5)])
            let decoded = try Strata_Demo_V1_UserMessage(serializedBytes: body.dropFirst(5))
            #expect(decoded.name == "Ann")
        }
    }

    @Test("A server stream is one entry with every message; a status without messages is the head")
    func serverStreams() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let recorder = HARRecorder()
        try await withDemo(serving: FaultService(), recordingInto: recorder) { networker, _ in
            var read: [Photo] = []
            for try await photo in networker.stream(try photos(of: 4)) { read.append(photo) }
            #expect(read.count == 3)
            await #expect(throws: StrataError.self) {
                for try await _ in networker.stream(try photos(of: 99)) {}
            }

            let entries = recorder.har.log.entries
            #expect(entries.count == 2)
            let stream = try #require(entries.first)
            #expect(stream.request.url.hasSuffix("/strata.demo.v1.UserService/ListPhotos"))
            #expect(Self.value("grpc-status", in: stream.response.headers) == "0")
            // Three framed messages, each the photo the reader got.
            var body = try #require(
                Self.bytes(stream.response.content.text, encoding: stream.response.content.encoding))
            var ids: [String] = []
            while body.count >= 5 {
                let length = body.dropFirst(1).prefix(4).reduce(0) { $0 << 8 | Int($1) }
                ids.append(try Strata_Demo_V1_PhotoMessage(serializedBytes: body.dropFirst(5).prefix(length)).id)
                body = Data(body.dropFirst(5 + length))
            }
            #expect(body.isEmpty)
            #expect(ids == read.map(\.id))

            let missing = try #require(entries.last)
            #expect(missing.response.status == 200)
            #expect(
                missing.response.headers == [
                    HAR.NameValue(name: "content-type", value: "application/grpc"),
                    HAR.NameValue(name: "grpc-status", value: "5"),
                    HAR.NameValue(name: "grpc-message", value: "no user 99"),
                ])
            #expect(missing.response.content.size == 0)
        }
    }
}
