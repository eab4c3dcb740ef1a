import Foundation
import Strata
import StrataTestServer
import StrataURLSession
import Testing

/// Seed 003's code runs as written: its `Photo(with:)` over `[String: Any]`, its
/// `Endpoint(url:parse:)` returning a `Result`, and its
/// `networker.load(endpoint) { result in guard let photo = result.value … }`, against a
/// real server on 127.0.0.1.
@Suite struct Seed003Tests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func theSeedsLoadCallReceivesThePhoto() async throws {
        try await TestServer.with { server in
            // From the seed, with the test server for jsonplaceholder and the printed photo
            // handed to the test.
            let networker = Networker()
            let baseUrl = server.baseURL.appendingPathComponent("/")

            // The seed prints the photo; the test hands its description back instead
            // (`Photo` is not `Sendable`, as the seed declares it).
            let printed: String? = await withCheckedContinuation { continuation in
                do {

                    let endpoint = try Photo.single(by: 5, with: baseUrl)

                    networker.load(endpoint) { result in

                        guard let photo = result.value else {
                            print("Something went wrong!")
                            continuation.resume(returning: nil)
                            return
                        }
                        continuation.resume(returning: String(describing: photo))
                    }

                } catch { continuation.resume(returning: nil) }
            }

            #expect(
                printed
                    == #"Photo(id: 5, albumId: 1, title: "Photo 5", url: https://img.example/p/5.jpg, thumbnailUrl: https://img.example/p/5-t.jpg)"#
            )
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func theSeedsAsyncCallReceivesThePhoto() async throws {
        try await TestServer.with { server in
            let networker = Networker()
            let photo = try await networker.send(
                try Photo.single(by: 7, with: server.baseURL.appendingPathComponent("/")))
            #expect(photo.id == 7)
            #expect(photo.title == "Photo 7")
        }
    }

    /// A `.failure` from the parse function fails the call as a decoding error that
    /// carries the seed's own error; a body that is not JSON fails as decoding too, with
    /// the JSON reader's error.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func parseFailuresKeepTheSeedsError() async throws {
        try await TestServer.with { server in
            let networker = Networker()
            let wrongShape = Endpoint<Photo>(
                url: server.baseURL.appendingPathComponent("json/user/1"),
                parse: { json in
                    do { return .success(try Photo(with: json as? [String: Any])) } catch let error {
                        return .failure(error)
                    }
                })
            let mapping = await #expect(throws: StrataError.self) { try await networker.send(wrongShape) }
            #expect(mapping?.kind == .decoding)
            #expect(mapping?.underlying as? NetworkError == .parse)

            let notJSON = Endpoint<Photo>(
                url: server.baseURL.appendingPathComponent("text"), parse: { _ in .failure(NetworkError.parse) })
            let decoding = await #expect(throws: StrataError.self) { try await networker.send(notJSON) }
            #expect(decoding?.kind == .decoding)
            #expect(decoding?.underlying is DecodingError)
        }
    }

    /// The callback's `Result` answers `value` and `error` the way the seed's `Result` did.
    @Test func resultValueAndError() {
        let success: Result<Int, NetworkError> = .success(3)
        let failure: Result<Int, NetworkError> = .failure(.url)
        #expect(success.value == 3)
        #expect(success.error == nil)
        #expect(failure.value == nil)
        #expect(failure.error == .url)
    }

    /// The bridge gives what `JSONSerialization` gives for the same bytes.
    @Test func foundationObjectsMatchJSONSerialization() throws {
        let text = #"{"id":5,"ratio":1.5,"whole":2.0,"ok":true,"none":null,"tags":["a",1]}"#
        let json = try JSONDecoder().decode(JSON.self, from: Data(text.utf8))
        let bridged = try #require(json.foundationObject as? [String: Any])
        let serialized = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        // What parse functions do with the objects: cast them. Every cast answers the same.
        #expect(Set(bridged.keys) == Set(serialized.keys))
        for key in serialized.keys {
            let (ours, theirs) = (bridged[key], serialized[key])
            #expect(ours as? Int == theirs as? Int, "\(key) as? Int")
            #expect(ours as? Double == theirs as? Double, "\(key) as? Double")
            #expect(ours as? Bool == theirs as? Bool, "\(key) as? Bool")
            #expect(ours as? String == theirs as? String, "\(key) as? String")
            #expect((ours is NSNull) == (theirs is NSNull), "\(key) is NSNull")
            #expect((ours as? [Any])?.count == (theirs as? [Any])?.count, "\(key) as? [Any]")
        }
        #expect(bridged["id"] as? Int == 5)
        #expect(bridged["ratio"] as? Double == 1.5)
        #expect(bridged["whole"] as? Int == 2)
        #expect(bridged["ok"] as? Bool == true)
        #expect(bridged["none"] is NSNull)
        #expect((bridged["tags"] as? [Any])?.first as? String == "a")
    }
}
