import Foundation
import HTTPTypes
import Strata

/// What a recording leaves out: the values of credential fields (by default
/// `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`, written as
/// `REDACTED`), and whatever `redact` removes from each entry (query values, JSON fields).
public struct HARRedaction: Sendable {
    /// The fields whose values are replaced, by lowercased name.
    public var fieldNames: Set<String>
    /// Changes each entry before it is kept, after the fields are redacted.
    public var redact: (@Sendable (inout HAR.Entry) -> Void)?

    /// A redaction of `fieldNames` (the credential fields by default), then `redact`.
    public init(
        fieldNames: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"],
        redact: (@Sendable (inout HAR.Entry) -> Void)? = nil
    ) {
        self.fieldNames = fieldNames
        self.redact = redact
    }

    /// `fields` as HAR pairs, redacted.
    func pairs(_ fields: HTTPFields) -> [HAR.NameValue] {
        fields.map { field in
            HAR.NameValue(
                name: field.name.rawName,
                value: fieldNames.contains(field.name.canonicalName) ? "REDACTED" : field.value)
        }
    }
}

/// The entries a recording has made so far, in the order their requests started; an
/// entry is complete once its response body has been read, has failed or was dropped.
public final class HARRecorder: Sendable {
    private let entries = Locked<[HAR.Entry?]>([])

    /// An empty recording.
    public init() {}

    /// The archive of the complete entries.
    public var har: HAR { HAR(entries: entries.withLock { $0.compactMap { $0 } }) }

    /// Writes ``har`` to `file`, atomically.
    public func write(to file: URL) throws {
        try har.encoded().write(to: file, options: .atomic)
    }

    /// A place for the next entry, in start order.
    func reserve() -> Int {
        entries.withLock {
            $0.append(nil)
            return $0.count - 1
        }
    }

    func complete(_ slot: Int, _ entry: HAR.Entry) {
        entries.withLock { $0[slot] = entry }
    }
}

/// A transport that sends through another and records every exchange as HAR 1.2: heads,
/// bodies (UTF-8 as text, other bytes in Base64), timings — a streamed response as it
/// arrived, once its body ends — with the credential fields redacted (``HARRedaction``).
///
/// ```swift
/// let recorder = HARRecorder()
/// let networker = Networker(transport: HARRecordingTransport(wrapping: transport, into: recorder))
/// _ = try await networker.send(userEndpoint)
/// try recorder.write(to: URL(fileURLWithPath: "Fixtures/user.har"))
/// ```
///
/// A request body is recorded as the transport reads it; bodies over `maxBodySize` keep
/// their size but not their bytes.
public struct HARRecordingTransport: Transport {
    /// The transport that sends.
    public let base: any Transport
    /// Where the entries go.
    public let recorder: HARRecorder
    /// What is left out.
    public let redaction: HARRedaction
    /// The most bytes of a body an entry keeps.
    public let maxBodySize: Int

    /// Records what goes through `base` into `recorder`.
    public init(
        wrapping base: any Transport, into recorder: HARRecorder = HARRecorder(),
        redaction: HARRedaction = HARRedaction(),
        maxBodySize: Int = 16 << 20
    ) {
        self.base = base
        self.recorder = recorder
        self.redaction = redaction
        self.maxBodySize = maxBodySize
    }

    /// Whether the base transport enforces deadlines.
    public var enforcesDeadline: Bool { base.enforcesDeadline }

    /// Sends `request` through ``base`` and records the exchange.
    public func send(
        _ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?
    ) async throws -> (HTTPResponse, MessageBody?) {
        let exchange = HAREntryRecording(request: request, redaction: redaction, maxBodySize: maxBodySize)
        let sent = body.map { exchange.requestBody.tee($0) }
        let report = AttemptReport(within: AttemptReport.current)
        let (response, responseBody) = try await AttemptReport.$current.withValue(report) {
            try await base.send(request, body: sent, deadline: deadline)
        }
        exchange.headArrived(
            response, protocolVersion: report.protocolVersion, slot: recorder.reserve(), recorder: recorder)
        guard let responseBody else {
            exchange.finish()
            return (response, nil)
        }
        return (response, exchange.responseBody.tee(responseBody) { exchange.finish() })
    }
}
