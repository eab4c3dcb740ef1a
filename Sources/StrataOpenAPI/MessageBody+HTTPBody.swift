#if OpenAPI
    import Foundation
    import OpenAPIRuntime
    import Strata

    extension MessageBody {
        /// A Strata body that reads the chunks of an OpenAPI `body` as they come, without
        /// collecting them.
        ///
        /// `body`'s iteration behaviour becomes the body's replayability: a body that can be
        /// iterated more than once (`.multiple`) is `isReplayable`, so a retry or a redirect
        /// may send it again; a `.single` one is read once, and no step sends it twice.
        public init(_ body: HTTPBody) {
            let length: Int64? =
                switch body.length {
                case .known(let count): count
                case .unknown: nil
                }
            let chunks = HTTPBodyChunks(body: body)
            switch body.iterationBehavior {
            case .multiple: self.init(length: length, makeChunks: { chunks })
            case .single: self.init(length: length, streaming: chunks)
            }
        }
    }

    extension HTTPBody {
        /// An OpenAPI body that reads the chunks of a Strata `body` as they come, without
        /// collecting them (a body held in memory stays in memory).
        ///
        /// A `MessageBody.isReplayable` body can be iterated more than once
        /// (`.multiple`); a streamed one once (`.single`).
        public convenience init(_ body: MessageBody) {
            let length: Length = body.length.map { .known($0) } ?? .unknown
            if let data = body.bufferedData {
                self.init(ArraySlice(data), length: length)
            } else {
                self.init(
                    MessageBodyChunks(body: body), length: length,
                    iterationBehavior: body.isReplayable ? .multiple : .single)
            }
        }
    }

    /// The chunks of an OpenAPI body as `Data`, for a ``StrataCore/MessageBody``.
    struct HTTPBodyChunks: AsyncSequence, Sendable {
        typealias Element = Data

        let body: HTTPBody

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: HTTPBody.AsyncIterator

            mutating func next() async throws -> Data? {
                try await base.next().map { Data($0) }
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: body.makeAsyncIterator())
        }
    }

    /// The chunks of a Strata body as byte slices, for an OpenAPI `HTTPBody`.
    struct MessageBodyChunks: AsyncSequence, Sendable {
        typealias Element = HTTPBody.ByteChunk

        let body: MessageBody

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: MessageBody.AsyncIterator

            mutating func next() async throws -> HTTPBody.ByteChunk? {
                try await base.next().map { HTTPBody.ByteChunk($0) }
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: body.makeAsyncIterator())
        }
    }
#endif
