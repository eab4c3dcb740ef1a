import Foundation
import HTTPTypes
import Strata

/// One entry being recorded: the request, then the head, then the end of the body.
final class HAREntryRecording: Sendable {
    private struct State {
        var response: HTTPResponse?
        var headAt: ContinuousClock.Instant?
        var httpVersion = ""
        var slot: Int?
        var recorder: HARRecorder?
        var finished = false
    }

    let request: HTTPRequest
    let redaction: HARRedaction
    let requestBody: BodyCopy
    let responseBody: BodyCopy
    private let startedAt = Date()
    private let started = ContinuousClock.now
    private let state = Locked(State())

    init(request: HTTPRequest, redaction: HARRedaction, maxBodySize: Int) {
        self.request = request
        self.redaction = redaction
        requestBody = BodyCopy(limit: maxBodySize)
        responseBody = BodyCopy(limit: maxBodySize)
    }

    /// The head arrived: the entry will go in `slot` of `recorder`.
    func headArrived(_ response: HTTPResponse, protocolVersion: String?, slot: Int, recorder: HARRecorder) {
        state.withLock {
            $0.response = response
            $0.headAt = .now
            $0.httpVersion = protocolVersion.map { "HTTP/" + $0 } ?? ""
            $0.slot = slot
            $0.recorder = recorder
        }
    }

    /// Fields that came after the head (a gRPC response's trailers), added to its fields:
    /// HAR has no place of their own for them.
    func fieldsArrived(_ fields: HTTPFields) {
        state.withLock { $0.response?.headerFields.append(contentsOf: fields) }
    }

    /// Whether the head arrived.
    var hasHead: Bool { state.withLock { $0.response != nil } }

    /// The response body ended (or there was none): the entry is complete.
    func finish() {
        let ended = ContinuousClock.now
        let taken: State? = state.withLock { state in
            guard !state.finished, state.response != nil else { return nil }
            state.finished = true
            return state
        }
        guard let taken, let response = taken.response, let slot = taken.slot, let recorder = taken.recorder,
            let headAt = taken.headAt
        else { return }
        var entry = HAR.Entry(
            startedDateTime: Self.timestamp(startedAt), time: Self.milliseconds(started.duration(to: ended)),
            request: harRequest(httpVersion: taken.httpVersion),
            response: harResponse(response, httpVersion: taken.httpVersion), cache: HAR.Cache(),
            timings: HAR.Timings(
                send: 0, wait: Self.milliseconds(started.duration(to: headAt)),
                receive: Self.milliseconds(headAt.duration(to: ended))))
        redaction.redact?(&entry)
        recorder.complete(slot, entry)
    }

    private func harRequest(httpVersion: String) -> HAR.Request {
        let url = request.url?.absoluteString ?? ""
        let items = URLComponents(string: url)?.queryItems ?? []
        let (bytes, count) = requestBody.contents
        let postData =
            count == 0 && request.headerFields[.contentLength] == nil
            ? nil
            : bytes.map { bytes in
                let (text, encoding) = HAR.text(of: bytes)
                return HAR.PostData(mimeType: request.headerFields[.contentType] ?? "", text: text, encoding: encoding)
            }
        return HAR.Request(
            method: request.method.rawValue, url: url, httpVersion: httpVersion, cookies: [],
            headers: redaction.pairs(request.headerFields),
            queryString: items.map { HAR.NameValue(name: $0.name, value: $0.value ?? "") }, postData: postData,
            headersSize: -1, bodySize: count)
    }

    private func harResponse(_ response: HTTPResponse, httpVersion: String) -> HAR.Response {
        let (bytes, count) = responseBody.contents
        let text = bytes.map(HAR.text(of:))
        return HAR.Response(
            status: response.status.code, statusText: response.status.reasonPhrase, httpVersion: httpVersion,
            cookies: [], headers: redaction.pairs(response.headerFields),
            content: HAR.Content(
                size: count, mimeType: response.headerFields[.contentType] ?? "", text: text?.text,
                encoding: text?.encoding),
            redirectURL: response.headerFields[.location] ?? "", headersSize: -1, bodySize: count)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        (duration / .milliseconds(1) * 1000).rounded() / 1000
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}

/// A copy of a body's bytes, made as it is read, up to a limit (past it, only the count).
final class BodyCopy: Sendable {
    private let limit: Int
    private let state = Locked((bytes: Data(), count: 0))

    init(limit: Int) {
        self.limit = limit
    }

    /// The bytes (`nil` past the limit) and their count.
    var contents: (bytes: Data?, count: Int) {
        state.withLock { ($0.count <= limit ? $0.bytes : nil, $0.count) }
    }

    /// Forgets what was copied: the body is being read again (sent again).
    private func reset() {
        state.withLock { $0 = (Data(), 0) }
    }

    /// Copies `chunk`, read after the ones before.
    func append(_ chunk: Data) {
        state.withLock { state in
            state.count += chunk.count
            if state.count <= limit { state.bytes.append(chunk) } else { state.bytes = Data() }
        }
    }

    /// `body`, copied here as it is read (a new reading starts the copy again); `ended` is
    /// called once when it ends, fails or is dropped.
    func tee(_ body: MessageBody, ended: @escaping @Sendable () -> Void = {}) -> MessageBody {
        if let data = body.bufferedData {
            append(data)
            ended()
            return body
        }
        let end = EndOnce(ended)
        return body.watched { [self] in
            reset()
            return (chunk: { self.append($0) }, end: { _ in end.callAction() })
        }
    }

    /// Calls its action once: at the end of the body, or when the body is dropped.
    final class EndOnce: Sendable {
        private let action: Locked<(@Sendable () -> Void)?>
        init(_ action: @escaping @Sendable () -> Void) { self.action = Locked(action) }
        func callAction() {
            action.withLock { taken in
                defer { taken = nil }
                return taken
            }?()
        }
        deinit { callAction() }
    }
}
