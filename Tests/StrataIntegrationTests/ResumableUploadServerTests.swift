import Crypto
import Foundation
import HTTPTypes
import Strata
import StrataDemoServer
import StrataTestSupport
import Testing

/// The resumable upload server itself (swift-nio-extras' `NIOResumableUpload` behind a
/// fault step), driven by hand with raw requests as the draft describes: create the
/// upload, append, get cut, ask the offset, append the rest.
@Suite("Resumable upload server", .runsAlone)
struct ResumableUploadServerTests {
    static let draft = HTTPField.Name("Upload-Draft-Interop-Version")!
    static let complete = HTTPField.Name("Upload-Complete")!
    static let offset = HTTPField.Name("Upload-Offset")!

    static func bytes(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) })
    }

    @Test(arguments: TransportKind.allCases)
    func anUploadCutTwiceIsStoredWholeAfterResuming(_ kind: TransportKind) async throws {
        // FoundationNetworking (libcurl) hands the server's 104 (upload resumption
        // supported) to the caller as the final response, and the connection's next answer
        // (the creation's 201) then to the PATCH.
        try await withKnownIssue(isIntermittent: false) {
            try await Self.uploadCutTwice(kind)
        } when: {
            kind == .urlSession
        }
    }

    static func uploadCutTwice(_ kind: TransportKind) async throws {
        let content = Self.bytes(3 << 20)
        // Connection 1 creates the upload and carries the first PATCH (kept alive), cut 1 MB in;
        // connection 2 is cut 1 MB in; connection 3 is not cut.
        try await ResumableUploadServer.with(cuts: [1 << 20, 1 << 20]) { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport)
                var create = HTTPRequest(method: .post, url: server.baseURL.appendingPathComponent("uploads/photo.bin"))
                create.headerFields[Self.draft] = "6"
                create.headerFields[Self.complete] = "?0"
                let (created, createdBody) = try await networker.send(create, body: MessageBody(Data()))
                _ = try await createdBody.collect(upTo: 1 << 16)
                #expect(created.status.code == 201)
                let location = try #require(created.headerFields[.location])
                #expect(location.hasPrefix(server.baseURL.absoluteString + "/resumable_upload/"))
                var sent: Int64 = 0
                var rounds = 0
                while rounds < 10 {
                    rounds += 1
                    var append = HTTPRequest(method: .patch, url: URL(string: location)!)
                    append.headerFields[Self.draft] = "6"
                    append.headerFields[Self.offset] = "\(sent)"
                    append.headerFields[Self.complete] = "?1"
                    append.headerFields[.contentType] = "application/partial-upload"
                    do {
                        let (response, body) = try await networker.send(
                            append, body: MessageBody(content[Int(sent)...]))
                        let receipt = try JSONDecoder().decode(
                            ResumableUploadServer.Stored.self, from: try await body.collect(upTo: 1 << 16))
                        #expect(response.status.code == 201)
                        #expect(receipt.size == content.count)
                        break
                    } catch {
                        var ask = HTTPRequest(method: .head, url: URL(string: location)!)
                        ask.headerFields[Self.draft] = "6"
                        let (answer, _) = try await networker.send(ask, body: nil)
                        #expect(answer.status.code == 204)
                        let offset = try #require(answer.headerFields[Self.offset].flatMap { Int64($0) })
                        #expect(offset > sent)
                        sent = offset
                    }
                }
                #expect(rounds == 3)
                let digest = SHA256.hash(data: content).map { String(format: "%02x", $0) }.joined()
                #expect(server.stored == [.init(path: "/uploads/photo.bin", size: content.count, sha256: digest)])
            }
        }
    }
}
