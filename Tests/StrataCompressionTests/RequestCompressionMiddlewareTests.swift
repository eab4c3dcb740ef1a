import Foundation
import HTTPTypes
import Strata
import Testing

@testable import StrataCompression

/// Which requests ``RequestCompressionMiddleware`` compresses, what it sends instead, and
/// how it reads a `415`, with a `next` that records what reached it.
@Suite struct RequestCompressionMiddlewareTests {
    /// What reached the end of the chain.
    struct Sent: Sendable {
        let request: HTTPRequest
        let body: Data?
    }

    /// Runs `middleware` on `request` and `body`; the chain's end answers `status`
    /// (with `acceptEncoding` on a `415`) and records what it got.
    static func run(
        _ middleware: RequestCompressionMiddleware,
        _ request: HTTPRequest,
        body: MessageBody?,
        options: CallValues = CallValues(),
        status: HTTPResponse.Status = .ok,
        acceptEncoding: String? = nil
    ) async throws -> [Sent] {
        let sent = Locked<[Sent]>([])
        let context = MiddlewareContext(options: options)
        _ = try await middleware.intercept(request, body: body, context: context) { request, body, _ in
            let bytes = try await body?.collect(upTo: 1 << 24)
            let count = sent.withLock { sent in
                sent.append(Sent(request: request, body: bytes))
                return sent.count
            }
            var response = HTTPResponse(status: count == 1 ? status : .ok)
            if let acceptEncoding { response.headerFields[.acceptEncoding] = acceptEncoding }
            return (response, MessageBody("refused"))
        }
        return sent.withLock { $0 }
    }

    static func post(length: Int? = nil) -> HTTPRequest {
        var request = HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1", path: "/upload")
        if let length { request.headerFields[.contentLength] = String(length) }
        return request
    }

    static let large = Data(String(repeating: "compress me ", count: 200).utf8)  // 2,400 bytes

    @Test func aBodyAtTheThresholdGoesGzippedWithoutContentLength() async throws {
        let sent = try await Self.run(
            RequestCompressionMiddleware(threshold: 2400), Self.post(length: 2400), body: MessageBody(Self.large))
        #expect(sent.count == 1)
        #expect(sent[0].request.headerFields[.contentEncoding] == "gzip")
        #expect(sent[0].request.headerFields[.contentLength] == nil)
        let inflated = try inflate(sent[0].body ?? Data(), expecting: Self.large.count)
        #expect(inflated == Self.large)
    }

    @Test func aBodyUnderTheThresholdGoesAsItIs() async throws {
        let sent = try await Self.run(
            RequestCompressionMiddleware(threshold: 2401), Self.post(length: 2400), body: MessageBody(Self.large))
        #expect(sent[0].request.headerFields[.contentEncoding] == nil)
        #expect(sent[0].request.headerFields[.contentLength] == "2400")
        #expect(sent[0].body == Self.large)
    }

    @Test func aStreamOfUnknownLengthGoesGzipped() async throws {
        let body = MessageBody(length: nil, streaming: [Data("tiny".utf8)].async)
        let sent = try await Self.run(RequestCompressionMiddleware(threshold: 1 << 20), Self.post(), body: body)
        #expect(sent[0].request.headerFields[.contentEncoding] == "gzip")
        #expect(try inflate(sent[0].body ?? Data(), expecting: 4) == Data("tiny".utf8))
    }

    @Test func anEncodedBodyAnEmptyOneAndGetAreLeftAlone() async throws {
        var encoded = Self.post()
        encoded.headerFields[.contentEncoding] = "br"
        let own = try await Self.run(RequestCompressionMiddleware(threshold: 0), encoded, body: MessageBody(Self.large))
        #expect(own[0].request.headerFields[.contentEncoding] == "br")
        #expect(own[0].body == Self.large)

        let empty = try await Self.run(
            RequestCompressionMiddleware(threshold: 0), Self.post(), body: MessageBody(Data()))
        #expect(empty[0].request.headerFields[.contentEncoding] == nil)

        let get = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: "/")
        let got = try await Self.run(RequestCompressionMiddleware(threshold: 0), get, body: MessageBody(Self.large))
        #expect(got[0].request.headerFields[.contentEncoding] == nil)

        let none = try await Self.run(RequestCompressionMiddleware(threshold: 0), Self.post(), body: nil)
        #expect(none[0].body == nil)
    }

    @Test func aCompressedMediaTypeGoesAsItIsUnlessAsked() async throws {
        var jpeg = Self.post()
        jpeg.headerFields[.contentType] = "image/JPEG; q=1"
        let skipped = try await Self.run(
            RequestCompressionMiddleware(threshold: 0), jpeg, body: MessageBody(Self.large))
        #expect(skipped[0].request.headerFields[.contentEncoding] == nil)
        let forced = try await Self.run(
            RequestCompressionMiddleware(threshold: 0, skipsCompressedMediaTypes: false), jpeg,
            body: MessageBody(Self.large))
        #expect(forced[0].request.headerFields[.contentEncoding] == "gzip")
        var asked = CallValues()
        asked[RequestCompressionKey.self] = .gzip()
        let askedFor = try await Self.run(
            RequestCompressionMiddleware(threshold: 0), jpeg, body: MessageBody(Self.large), options: asked)
        #expect(askedFor[0].request.headerFields[.contentEncoding] == "gzip")

        let compressed = [
            "image/png", "video/mp4", "audio/mpeg", "application/zip", "application/gzip", "font/woff2",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "application/pdf",
        ]
        let plain = [
            "image/svg+xml", "audio/wav", "text/plain", "application/json", "application/octet-stream",
            "multipart/form-data; boundary=x", "", "nonsense",
        ]
        #expect(compressed.filter { !RequestCompressionMiddleware.isCompressedMediaType($0) } == [])
        #expect(plain.filter { RequestCompressionMiddleware.isCompressedMediaType($0) } == [])
    }

    @Test func theEndpointsOptionWins() async throws {
        var never = CallValues()
        never[RequestCompressionKey.self] = .never
        let refused = try await Self.run(
            RequestCompressionMiddleware(threshold: 0), Self.post(), body: MessageBody(Self.large), options: never)
        #expect(refused[0].request.headerFields[.contentEncoding] == nil)

        var always = CallValues()
        always[RequestCompressionKey.self] = .gzip(threshold: 0)
        let asked = try await Self.run(
            RequestCompressionMiddleware(threshold: 1 << 20, scope: .endpointsThatAsk), Self.post(),
            body: MessageBody("small"), options: always)
        #expect(asked[0].request.headerFields[.contentEncoding] == "gzip")

        let unasked = try await Self.run(
            RequestCompressionMiddleware(threshold: 0, scope: .endpointsThatAsk), Self.post(),
            body: MessageBody(Self.large))
        #expect(unasked[0].request.headerFields[.contentEncoding] == nil)
    }

    @Test func a415WithoutGzipInAcceptEncodingIsARefusal() async throws {
        do {
            _ = try await Self.run(
                RequestCompressionMiddleware(threshold: 0), Self.post(), body: MessageBody(Self.large),
                status: .unsupportedMediaType, acceptEncoding: "identity;q=1, br")
            Issue.record("a 415 passed")
        } catch let error as StrataError {
            #expect(error.kind == .requestCompressionRefused)
            #expect(error.statusCode == 415)
            let refusal = error.underlying as? RequestCompressionRefusal
            #expect(refusal == RequestCompressionRefusal(contentCoding: "gzip", acceptedCodings: ["identity", "br"]))
            #expect(error.body == Data("refused".utf8))
            #expect(error.request?.headerFields[.contentEncoding] == "gzip")
            #expect(
                error.description
                    == "POST http://127.0.0.1/upload → 415 Unsupported Media Type: the server does not accept gzip request bodies (it accepts: identity, br); body: refused"
            )
        }
    }

    @Test func a415NamingGzipIsAboutSomethingElse() async throws {
        let sent = try await Self.run(
            RequestCompressionMiddleware(threshold: 0), Self.post(), body: MessageBody(Self.large),
            status: .unsupportedMediaType, acceptEncoding: "GZIP, identity")
        #expect(sent.count == 1)
        #expect(
            RequestCompressionMiddleware.refusal(of: "gzip", in: HTTPResponse(status: .unsupportedMediaType)) != nil)
    }

    @Test func aRefusedReplayableBodyIsResentUncompressedWhenAsked() async throws {
        let sent = try await Self.run(
            RequestCompressionMiddleware(threshold: 0, onRefusal: .resendUncompressed), Self.post(length: 2400),
            body: MessageBody(Self.large), status: .unsupportedMediaType)
        #expect(sent.count == 2)
        #expect(sent[1].request.headerFields[.contentEncoding] == nil)
        #expect(sent[1].request.headerFields[.contentLength] == "2400")
        #expect(sent[1].body == Self.large)
    }

    @Test func aRefusedStreamIsNotResent() async throws {
        let body = MessageBody(length: nil, streaming: [Self.large].async)
        await #expect(throws: StrataError.self) {
            _ = try await Self.run(
                RequestCompressionMiddleware(threshold: 0, onRefusal: .resendUncompressed), Self.post(), body: body,
                status: .unsupportedMediaType)
        }
    }
}
