#if GRPC
    import Foundation
    import GRPCCore
    import HTTPTypes
    import Strata
    import StrataGRPC

    /// A gRPC client transport that sends through another and records every attempt in a
    /// ``HARRecorder``, as HTTP carries it, so one archive shows a gRPC call beside the HTTP
    /// calls of ``HARRecordingTransport``:
    ///
    /// - the request: a `POST` of `/package.Service/Method` over HTTP/2 to the peer the attempt
    ///   reached, its metadata as header fields (binary values in Base64), and its messages as
    ///   gRPC frames them (a flag byte and a 4-byte length before each, uncompressed);
    /// - the response: a `200` whose header fields are the response's metadata followed by its
    ///   trailers (`grpc-status`, `grpc-message` and the trailing metadata: HAR has no place of
    ///   their own for trailers), and its messages framed the same way.
    ///
    /// The credential fields are redacted (``HARRedaction``). Each attempt of a retried call is
    /// an entry of its own; an attempt that got no answer (a refused connection) leaves none,
    /// as over HTTP.
    ///
    /// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests makes these calls) -->
    /// ```swift
    /// let recorder = HARRecorder()
    /// let networker = GRPCNetworker(transport: HARRecordingGRPCTransport(wrapping: transport, into: recorder))
    /// ```
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct HARRecordingGRPCTransport<Base: ClientTransport>: GRPCWrappingTransport {
        /// The transport's bytes: the wrapped transport's.
        public typealias Bytes = Base.Bytes

        /// The transport that carries the calls.
        public let base: Base
        /// Where the entries go.
        public let recorder: HARRecorder
        /// What is left out.
        public let redaction: HARRedaction
        /// The most bytes of a request's or a response's messages an entry keeps.
        public let maxBodySize: Int
        /// The scheme of the entries' URLs: `https` for a transport that uses TLS.
        public let scheme: String

        /// Records what goes through `base` into `recorder`.
        public init(
            wrapping base: Base, into recorder: HARRecorder = HARRecorder(),
            redaction: HARRedaction = HARRedaction(), maxBodySize: Int = 16 << 20, scheme: String = "http"
        ) {
            self.base = base
            self.recorder = recorder
            self.redaction = redaction
            self.maxBodySize = maxBodySize
            self.scheme = scheme
        }

        /// Opens a stream on the wrapped transport for one attempt and records what goes
        /// through it; the entry is complete when the attempt ends.
        public func withStream<T: Sendable>(
            descriptor: MethodDescriptor,
            options: CallOptions,
            _ closure: (_ stream: RPCStream<Inbound, Outbound>, _ context: ClientContext) async throws -> T
        ) async throws -> T {
            try await base.withStream(descriptor: descriptor, options: options) { stream, context in
                let attempt = GRPCAttemptRecording(
                    url: (scheme, Self.authority(of: context.remotePeer), "/" + descriptor.fullyQualifiedMethod),
                    transport: self)
                defer { attempt.finish() }
                let inbound = stream.inbound.map { @Sendable part in
                    attempt.received(part)
                    return part
                }
                return try await closure(
                    RPCStream(
                        descriptor: stream.descriptor, inbound: RPCAsyncSequence(wrapping: inbound),
                        outbound: RPCWriter.Closable(wrapping: RecordingWriter(base: stream.outbound, attempt: attempt))
                    ),
                    context)
            }
        }

        /// The authority of a peer as grpc-swift's transports describe it (`ipv4:127.0.0.1:50051`,
        /// `ipv6:[::1]:50051`, `unix:/path`): the address and port, `localhost` for a socket file.
        static func authority(of peer: String) -> String {
            for prefix in ["ipv4:", "ipv6:"] where peer.hasPrefix(prefix) {
                return String(peer.dropFirst(prefix.count))
            }
            return peer.hasPrefix("unix:") || peer.isEmpty ? "localhost" : peer
        }
    }

    /// One attempt being recorded: its entry starts when the request's metadata is written.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    private final class GRPCAttemptRecording: Sendable {
        private let url: (scheme: String, authority: String, path: String)
        private let recorder: HARRecorder
        private let redaction: HARRedaction
        private let maxBodySize: Int
        private let entry = Locked<HAREntryRecording?>(nil)

        init<Base>(url: (String, String, String), transport: HARRecordingGRPCTransport<Base>) {
            self.url = url
            recorder = transport.recorder
            redaction = transport.redaction
            maxBodySize = transport.maxBodySize
        }

        /// A part of the request, as it is written.
        func sent<Bytes>(_ part: RPCRequestPart<Bytes>) {
            switch part {
            case .metadata(let metadata):
                var fields = Self.fields(metadata)
                Self.addContentType(to: &fields)
                let request = HTTPRequest(
                    method: .post, scheme: url.scheme, authority: url.authority, path: url.path, headerFields: fields)
                entry.withLock {
                    $0 = $0 ?? HAREntryRecording(request: request, redaction: redaction, maxBodySize: maxBodySize)
                }
            case .message(let bytes):
                entry.withLock { $0 }?.requestBody.append(Self.frame(bytes))
            }
        }

        /// A part of the response, as it is read.
        func received<Bytes>(_ part: RPCResponsePart<Bytes>) {
            guard let entry = entry.withLock({ $0 }) else { return }
            switch part {
            case .metadata(let metadata):
                var fields = Self.fields(metadata)
                Self.addContentType(to: &fields)
                entry.headArrived(
                    HTTPResponse(status: .ok, headerFields: fields), protocolVersion: "2",
                    slot: recorder.reserve(), recorder: recorder)
            case .message(let bytes):
                entry.responseBody.append(Self.frame(bytes))
            case .status(let status, let trailers):
                var fields = HTTPFields()
                fields[HTTPField.Name("grpc-status")!] = String(status.code.rawValue)
                if !status.message.isEmpty { fields[HTTPField.Name("grpc-message")!] = status.message }
                fields.append(contentsOf: Self.fields(trailers))
                if entry.hasHead {
                    entry.fieldsArrived(fields)
                } else {
                    // A trailers-only answer the transport did not split: the status is the head.
                    Self.addContentType(to: &fields)
                    entry.headArrived(
                        HTTPResponse(status: .ok, headerFields: fields), protocolVersion: "2",
                        slot: recorder.reserve(), recorder: recorder)
                }
                entry.finish()
            }
        }

        /// The attempt ended: an entry with an answer is complete with what came of it.
        func finish() {
            entry.withLock { $0 }?.finish()
        }

        /// gRPC's `content-type` first, unless `fields` has one: a request's metadata lacks the
        /// one its transport writes.
        static func addContentType(to fields: inout HTTPFields) {
            guard fields[.contentType] == nil else { return }
            fields.insert(HTTPField(name: HTTPField.Name("content-type")!, value: "application/grpc"), at: 0)
        }

        /// `metadata` as header fields; a key HTTP cannot carry is left out.
        static func fields(_ metadata: Metadata) -> HTTPFields {
            var fields = HTTPFields()
            for (key, value) in metadata {
                guard let name = HTTPField.Name(key) else { continue }
                switch value {
                case .string(let text): fields.append(HTTPField(name: name, value: text))
                case .binary(let bytes): fields.append(HTTPField(name: name, value: Data(bytes).base64EncodedString()))
                }
            }
            return fields
        }

        /// A message as gRPC frames it on the wire, uncompressed: a zero flag byte, its
        /// length in 4 bytes (big-endian), its bytes.
        static func frame<Bytes: GRPCContiguousBytes>(_ message: Bytes) -> Data {
            var framed = Data([0])
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: message.count).bigEndian) { framed.append(contentsOf: $0) }
            message.withUnsafeBytes { framed.append(contentsOf: $0) }
            return framed
        }
    }

    /// The attempt's request writer, recording each part before it is written.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    private struct RecordingWriter<Bytes: GRPCContiguousBytes & Sendable>: ClosableRPCWriterProtocol {
        let base: RPCWriter<RPCRequestPart<Bytes>>.Closable
        let attempt: GRPCAttemptRecording

        func write(_ element: RPCRequestPart<Bytes>) async throws {
            attempt.sent(element)
            try await base.write(element)
        }

        func write(contentsOf elements: some Sequence<RPCRequestPart<Bytes>>) async throws {
            let elements = Array(elements)
            for element in elements { attempt.sent(element) }
            try await base.write(contentsOf: elements)
        }

        func finish() async {
            await base.finish()
        }

        func finish(throwing error: any Error) async {
            await base.finish(throwing: error)
        }
    }
#endif
