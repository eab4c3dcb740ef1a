import Foundation
import HTTPTypes
import Testing

@testable import Strata
@testable import StrataCore

@Suite struct MultipartRequestTests {
    @Test func multipartBodyStreamsTheFormWithItsContentType() async throws {
        var form = try MultipartFormData(boundary: "b0undary")
        form.append("Ann", name: "name")
        form.append(Data([1, 2, 3]), name: "avatar", fileName: "a.png", contentType: "image/png")
        let request = RequestDescription(
            route: RegistrationRoute.register, method: .post,
            parameters: ["v": 2] as JSON, encoding: .urlQuery, body: .multipart(form))
        let encoded = try request.encoded()
        #expect(encoded.head.url?.absoluteString == "http://example.com/user/register?v=2")
        #expect(encoded.head.headerFields[.contentType] == "multipart/form-data; boundary=b0undary")
        let body = try #require(encoded.body)
        #expect(body.isReplayable)
        #expect(body.length == form.contentLength)
        let expected =
            "--b0undary\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAnn\r\n"
            + "--b0undary\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"a.png\"\r\n"
            + "Content-Type: image/png\r\n\r\n\u{1}\u{2}\u{3}\r\n--b0undary--\r\n"
        #expect(try await body.collect(upTo: 1 << 20) == Data(expected.utf8))
        #expect(try await body.collect(upTo: 1 << 20) == Data(expected.utf8))
        await #expect(throws: MessageBodyError.tooLarge(limit: 10)) { try await body.collect(upTo: 10) }
    }
}

@Suite struct MessageBodyTests {
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = Data
        let parts: [String]
        struct AsyncIterator: AsyncIteratorProtocol {
            var remaining: [String]
            mutating func next() async throws -> Data? {
                remaining.isEmpty ? nil : Data(remaining.removeFirst().utf8)
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: parts) }
    }

    @Test func streamedBodyIsReadOnce() async throws {
        let body = MessageBody(length: nil, streaming: Chunks(parts: ["ab", "cd"]))
        #expect(!body.isReplayable)
        #expect(body.bufferedData == nil)
        #expect(try await body.collect(upTo: 100) == Data("abcd".utf8))
        await #expect(throws: MessageBodyError.alreadyConsumed) { try await body.collect(upTo: 100) }
    }

    @Test func streamedBodyOverTheLimitWithoutLength() async {
        let body = MessageBody(length: nil, streaming: Chunks(parts: ["abc", "def"]))
        await #expect(throws: MessageBodyError.tooLarge(limit: 4)) { try await body.collect(upTo: 4) }
    }

    @Test func declaredLengthOverTheLimitFailsBeforeReading() async {
        let body = MessageBody(length: 1_000_000, streaming: Chunks(parts: []))
        await #expect(throws: MessageBodyError.tooLarge(limit: 10)) { try await body.collect(upTo: 10) }
    }

    @Test func inMemoryBodies() async throws {
        let body = MessageBody("héllo")
        #expect(body.length == 6)
        #expect(body.isReplayable)
        var chunks: [Data] = []
        for try await chunk in body { chunks.append(chunk) }
        #expect(chunks == [Data("héllo".utf8)])
        var empty: [Data] = []
        for try await chunk in MessageBody(Data()) { empty.append(chunk) }
        #expect(empty.isEmpty)
    }
}
