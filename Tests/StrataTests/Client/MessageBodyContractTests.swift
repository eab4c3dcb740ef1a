import Foundation
import HTTPTypes
import Testing

@testable import Strata
@testable import StrataCore

/// One body contract: which responses have no body, and how a streamed body is read.
@Suite struct MessageBodyContractTests {
    @Test(arguments: [
        (HTTPRequest.Method.get, 200, false), (.head, 200, true), (.get, 100, true), (.get, 103, true),
        (.get, 204, true), (.get, 205, true), (.get, 304, true), (.connect, 200, true), (.connect, 407, false),
        (.post, 201, false), (.get, 404, false), (.delete, 500, false),
    ])
    func responsesThatCannotHaveABody(method: HTTPRequest.Method, code: Int, expected: Bool) {
        #expect(HTTPResponse(status: .init(code: code)).cannotHaveBody(respondingTo: method) == expected)
    }

    /// Chunks that come slowly, so that two readers overlap.
    struct SlowChunks: AsyncSequence, Sendable {
        typealias Element = Data
        struct AsyncIterator: AsyncIteratorProtocol {
            var left = 3
            mutating func next() async throws -> Data? {
                guard left > 0 else { return nil }
                left -= 1
                try await Task.sleep(for: .milliseconds(100))
                return Data("x".utf8)
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
    }

    @Test func concurrentSecondReadOfAOneShotBodyThrows() async throws {
        let body = MessageBody(length: nil, streaming: SlowChunks())
        let iterator = body.makeAsyncIterator()
        async let first: Data? = {
            var copy = iterator
            return try await copy.next()
        }()
        try await Task.sleep(for: .milliseconds(20))
        var second = iterator
        await #expect(throws: MessageBodyError.alreadyConsumed) { _ = try await second.next() }
        #expect(try await first == Data("x".utf8))
        // A new reader of the same body is refused too.
        await #expect(throws: MessageBodyError.alreadyConsumed) { _ = try await body.collect(upTo: 10) }
    }

    @Test func copiesOfAnIteratorShareOnePosition() async throws {
        let body = MessageBody(length: nil, streaming: SlowChunks())
        var a = body.makeAsyncIterator()
        var b = a
        #expect(try await a.next() == Data("x".utf8))
        #expect(try await b.next() == Data("x".utf8))
        #expect(try await a.next() == Data("x".utf8))
        #expect(try await b.next() == nil)
        #expect(try await a.next() == nil)
    }

    struct FailingChunks: AsyncSequence, Sendable {
        typealias Element = Data
        struct Broken: Error {}
        struct AsyncIterator: AsyncIteratorProtocol {
            var count = 0
            mutating func next() async throws -> Data? {
                count += 1
                if count == 2 { throw Broken() }
                return Data("\(count)".utf8)
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
    }

    @Test func aFailedReadEndsTheBody() async throws {
        var iterator = MessageBody(length: nil, streaming: FailingChunks()).makeAsyncIterator()
        #expect(try await iterator.next() == Data("1".utf8))
        await #expect(throws: FailingChunks.Broken.self) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test func replayableBodiesStartOverForEachReader() async throws {
        let body = MessageBody(length: 3) { SlowChunks() }
        #expect(try await body.collect(upTo: 10) == Data("xxx".utf8))
        #expect(try await body.collect(upTo: 10) == Data("xxx".utf8))
    }
}
