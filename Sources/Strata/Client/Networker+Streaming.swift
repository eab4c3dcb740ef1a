import Foundation
import HTTPTypes

extension Networker {
    /// Sends the endpoint's request and returns the response head with its body
    /// unread, for large or endless responses. The endpoint's parse function is not used.
    ///
    /// The status is validated before returning (content types are not, as that
    /// needs the body). The call's deadline still holds while a streamed body is read:
    /// one timer covers the head and every read, and a read past the deadline throws
    /// ``TransportError`` of kind ``TransportError/Kind/timedOut``. The timer is released
    /// when the body ends, fails, or is dropped. Whether the body really streams depends
    /// on the transport: AsyncHTTPClient streams, and so does URLSession on a session the
    /// transport created (on a borrowed session it delivers the body whole).
    /// - Throws: ``StrataError`` naming the stage that failed.
    public func stream<Response>(_ endpoint: Endpoint<Response>) async throws(StrataError) -> (HTTPResponse, MessageBody) {
        let encoded = try encode(endpoint)
        let request = encoded.head
        let context = makeContext(for: endpoint, start: .now)
        let chain = self.chain
        let timer = context.deadline.map(ExchangeTimer.init)
        let outcome = await Deadline.run(under: timer) { try await chain(request, encoded.body, context) }
        let head: HTTPResponse
        let body: MessageBody
        switch outcome.result {
        case .success(let (response, responseBody)):
            head = response
            startDueRevalidation(of: request, after: context)
            if let responseBody, responseBody.bufferedData == nil, let timer {
                body = MessageBody(length: responseBody.length, source: TimedChunkSource(responseBody, timer: timer))
            } else {
                // No body, or one already in memory (the mock, a borrowed URLSession): nothing left to time.
                timer?.cancel()
                body = responseBody ?? MessageBody(Data())
            }
        case .failure(let error):
            timer?.cancel()
            throw Pipeline.classify(error, request: request, progress: Pipeline.Progress(), timedOut: outcome.timedOut)
                .withRecords(of: context)
        }
        var statusOnly = endpoint.validation ?? configuration.validation
        statusOnly.acceptableContentTypes = nil
        if let failure = statusOnly.failure(of: head, bodyIsEmpty: true, for: request) {
            let errorBody = await body.prefix(configuration.errorBodyLimit + 1)
            throw StrataError(failure, request: request, response: head, body: errorBody,
                              bodyLimit: configuration.errorBodyLimit).withRecords(of: context)
        }
        return (head, body)
    }
}

/// The chunks of a streamed response body, each read run under the call's
/// ``ExchangeTimer``; the timer is released when the body ends, fails or is dropped.
final class TimedChunkSource: ChunkSource {
    private let upstream: any ChunkSource
    private let timer: ExchangeTimer

    init(_ body: MessageBody, timer: ExchangeTimer) {
        self.upstream = IteratorChunkSource(body.makeAsyncIterator())
        self.timer = timer
    }

    deinit {
        timer.cancel()
    }

    func next() async throws -> Data? {
        let upstream = self.upstream
        let outcome = await timer.run { try await upstream.next() }
        if outcome.timedOut {
            timer.cancel()
            throw TransportError(.timedOut)
        }
        switch outcome.result {
        case .success(let chunk):
            if chunk == nil { timer.cancel() }
            return chunk
        case .failure(let error):
            timer.cancel()
            throw error
        }
    }
}
