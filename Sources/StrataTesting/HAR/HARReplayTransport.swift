import Foundation
import HTTPTypes
import Strata

/// Why ``HARReplayTransport`` could not answer a request.
public enum HARReplayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing recorded matches `request` (`GET https://…`); `closest` is the recorded
    /// request most like it, when there is one.
    case noMatch(request: String, closest: String?)

    /// `no recorded response for GET …; the closest recorded request is GET …`.
    public var description: String {
        switch self {
        case .noMatch(let request, let closest):
            "no recorded response for \(request)" + (closest.map { "; the closest recorded request is \($0)" } ?? "")
        }
    }
}

/// A transport that answers from a HAR archive: each request gets the response recorded
/// for the same method and URL (and, when asked, the same body and chosen header fields),
/// repeated requests the recorded ones in order (the last again once they run out).
///
/// ```swift
/// let replay = HARReplayTransport(try HAR(contentsOf: fixture))
/// let user = try await Networker(transport: replay).send(userEndpoint)   // no network
/// ```
///
/// A request nothing matches fails with a `TransportError` whose underlying error is
/// ``HARReplayError/noMatch(request:closest:)``, or,
/// with ``Mode/recordMissing(over:into:)``, goes to a real transport and is recorded.
public struct HARReplayTransport: Transport {
    /// What to do with a request the archive has no answer for.
    public enum Mode: Sendable {
        /// Fail it with ``HARReplayError/noMatch(request:closest:)``.
        case strict
        /// Send it through `transport`, recording the exchange in `recorder`.
        case recordMissing(over: any Transport, into: HARRecorder)
    }

    /// What else, besides the method and the URL, a request must share with an entry.
    public struct Matching: Sendable, Hashable {
        /// The same body bytes.
        public var body: Bool
        /// The same values of these fields (by lowercased name).
        public var fieldNames: Set<String>

        /// Matching on the method and the URL, plus the body and `fieldNames` when asked.
        public init(body: Bool = false, fieldNames: Set<String> = []) {
            self.body = body
            self.fieldNames = fieldNames
        }
    }

    private let entries: [HAR.Entry]
    private let matching: Matching
    private let mode: Mode
    private let used = Locked<[String: Int]>([:])

    /// Answers from `har`.
    public init(_ har: HAR, matching: Matching = Matching(), mode: Mode = .strict) {
        entries = har.log.entries
        self.matching = matching
        self.mode = mode
    }

    /// The recorded response for `request`; see the type's documentation.
    public func send(
        _ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?
    ) async throws -> (HTTPResponse, MessageBody?) {
        let url = request.url?.absoluteString ?? ""
        let bytes = matching.body ? try await body?.collect(upTo: 64 << 20) ?? Data() : nil
        let candidates = entries.indices.filter { index in
            let recorded = entries[index].request
            guard recorded.method == request.method.rawValue, recorded.url == url else { return false }
            if let bytes {
                let recordedBytes = recorded.postData.map { HAR.bytes(of: $0.text, encoding: $0.encoding) } ?? Data()
                guard recordedBytes == bytes else { return false }
            }
            return matching.fieldNames.allSatisfy { name in
                recorded.headers.first { $0.name.lowercased() == name }?.value
                    == request.headerFields.first { $0.name.canonicalName == name }?.value
            }
        }
        guard !candidates.isEmpty else {
            switch mode {
            case .strict:
                let error = HARReplayError.noMatch(
                    request: "\(request.method.rawValue) \(url)", closest: closest(to: request.method.rawValue, url))
                throw TransportError(.other, underlying: error, detail: error.description)
            case .recordMissing(let transport, let recorder):
                return try await HARRecordingTransport(wrapping: transport, into: recorder).send(
                    request, body: bytes.map { MessageBody($0) } ?? body, deadline: deadline)
            }
        }
        let key = "\(request.method.rawValue) \(url)"
        let turn = used.withLock { used in
            defer { used[key, default: 0] += 1 }
            return used[key, default: 0]
        }
        return Self.response(entries[candidates[min(turn, candidates.count - 1)]].response)
    }

    /// The recorded request most like `method` and `url`: the same method first, then
    /// the longest common prefix of the URL.
    private func closest(to method: String, _ url: String) -> String? {
        let best = entries.max { first, second in
            score(first.request, method, url) < score(second.request, method, url)
        }
        return best.map { "\($0.request.method) \($0.request.url)" }
    }

    private func score(_ recorded: HAR.Request, _ method: String, _ url: String) -> Int {
        (recorded.method == method ? 1_000_000 : 0) + zip(recorded.url, url).prefix { $0 == $1 }.count
    }

    /// The response an entry recorded, its body in memory.
    private static func response(_ recorded: HAR.Response) -> (HTTPResponse, MessageBody?) {
        var fields = HTTPFields()
        for header in recorded.headers {
            guard let name = HTTPField.Name(header.name) else { continue }
            fields.append(HTTPField(name: name, value: header.value))
        }
        let head = HTTPResponse(
            status: HTTPResponse.Status(code: recorded.status, reasonPhrase: recorded.statusText), headerFields: fields)
        let bytes = recorded.content.text.map { HAR.bytes(of: $0, encoding: recorded.content.encoding) } ?? Data()
        return (head, head.status.code == 204 || head.status.code == 304 ? nil : MessageBody(bytes))
    }
}
