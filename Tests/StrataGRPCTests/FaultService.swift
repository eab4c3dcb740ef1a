import GRPCCore
import Strata
import StrataGRPCDemo
import Synchronization

/// A service of the tests' own that misbehaves as the request's `fault` metadata says:
///
/// - `status:CODE` ends the call with that status code and the message `fault CODE`;
/// - `hang` never answers (until the call is cancelled);
/// - `malformed` answers bytes that are no protobuf message;
/// - `unknown-type` answers a `UserMessage` whose `type` is 7, which no `UserType` is;
/// - `echo` answers an empty message and sends back the request's `grpc-timeout` (as
///   `x-grpc-timeout`), `x-trace` and
///   `x-blob-bin` metadata as its own;
/// - `flaky:CODE:N:KEY` ends the first `N` calls with key `KEY` with status `CODE`, then
///   answers an empty message;
/// - `auth` answers an empty message when the `authorization` metadata is
///   `Bearer fresh`, and `unauthenticated` otherwise;
/// - `hang-first:N:KEY` never answers the first `N` calls with key `KEY` (until each RPC
///   is cancelled, counting the cancelled ones under `KEY-cancelled`), then answers an
///   empty message;
/// - `firehose:N:SIZE` streams `N` messages of `SIZE` bytes (each filled with its index
///   modulo 256), counting under the key `firehose` each one the transport took, and under
///   `firehose-stopped` a stream whose writing failed (the client reset it).
///
/// ``calls`` counts every call, ``CallCounter/value(for:)`` the calls of one key (a
/// `flaky` call's `KEY`, `auth`).
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
struct FaultService: RegistrableRPCService {
    static let method = MethodDescriptor(fullyQualifiedService: "strata.test.Faults", method: "Fault")

    /// How many calls reached the handler.
    let calls = CallCounter()

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        let calls = self.calls
        router.registerHandler(
            forMethod: Self.method, deserializer: BytesCoder(), serializer: BytesCoder()
        ) { request, _ in
            calls.increment()
            let fault = request.metadata[stringValues: "fault"].first(where: { _ in true }) ?? ""
            if fault.hasPrefix("flaky:") {
                let fields = fault.split(separator: ":", maxSplits: 3).map(String.init)
                let count = calls.increment(fields[3])
                guard count > Int(fields[2])! else {
                    let code = RPCError.Code(Status.Code(rawValue: Int(fields[1])!)!)!
                    return StreamingServerResponse(error: RPCError(code: code, message: "flaky \(count)"))
                }
                return StreamingServerResponse(single: ServerResponse(message: []))
            }
            if fault.hasPrefix("hang-first:") {
                let fields = fault.split(separator: ":", maxSplits: 2).map(String.init)
                if calls.increment(fields[2]) <= Int(fields[1])! {
                    do {
                        try await waitForRPCCancellation()
                    } catch {
                        calls.increment("\(fields[2])-cancelled")
                        throw error
                    }
                }
                return StreamingServerResponse(single: ServerResponse(message: []))
            }
            if fault.hasPrefix("firehose:") {
                let fields = fault.split(separator: ":").dropFirst().map { Int($0)! }
                return StreamingServerResponse { writer in
                    do {
                        for index in 0..<fields[0] {
                            try await writer.write([UInt8](repeating: UInt8(index % 256), count: fields[1]))
                            calls.increment("firehose")
                        }
                    } catch {
                        calls.increment("firehose-stopped")
                        throw error
                    }
                    return [:]
                }
            }
            switch fault {
            case "auth":
                calls.increment("auth")
                let authorization = request.metadata[stringValues: "authorization"].first(where: { _ in true })
                guard authorization == "Bearer fresh" else {
                    return StreamingServerResponse(error: RPCError(code: .unauthenticated, message: "stale"))
                }
                return StreamingServerResponse(single: ServerResponse(message: []))
            case "hang":
                try await Deadline.sleep(for: .seconds(600))  // released at once when cancelled
                return StreamingServerResponse(single: ServerResponse(message: []))
            case "malformed":
                return StreamingServerResponse(single: ServerResponse(message: [0xFF, 0xFF, 0xFF, 0xFF]))
            case "unknown-type":
                let user = Strata_Demo_V1_UserMessage.with {
                    $0.name = "Zed"
                    $0.age = 40
                    $0.type = .UNRECOGNIZED(7)
                }
                return StreamingServerResponse(single: ServerResponse(message: try user.serializedBytes()))
            case "echo":
                var metadata = Metadata()
                for value in request.metadata[stringValues: "x-trace"] {
                    metadata.addString(value, forKey: "x-trace")
                }
                for value in request.metadata[binaryValues: "x-blob-bin"] {
                    metadata.addBinary(value, forKey: "x-blob-bin")
                }
                for value in request.metadata[stringValues: "grpc-timeout"] {
                    metadata.addString(value, forKey: "x-grpc-timeout")
                }
                return StreamingServerResponse(single: ServerResponse(message: [], metadata: metadata))
            default:
                let code = fault.hasPrefix("status:") ? Int(fault.dropFirst("status:".count)) ?? 2 : 2
                let status = Status.Code(rawValue: code) ?? .unknown
                let error = RPCError(code: RPCError.Code(status) ?? .unknown, message: "fault \(code)")
                return StreamingServerResponse(error: error)
            }
        }
    }
}

/// Messages as their bytes, both ways.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
struct BytesCoder: MessageSerializer, MessageDeserializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes {
        Bytes(message)
    }

    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> [UInt8] {
        serializedMessageBytes.withUnsafeBytes { Array($0) }
    }
}

/// A count shared by the handler's calls.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class CallCounter: Sendable {
    private let count = Mutex(0)
    private let keyed = Mutex<[String: Int]>([:])

    func increment() {
        count.withLock { $0 += 1 }
    }

    /// Counts a call with `key`; returns its count so far, this call included.
    @discardableResult
    func increment(_ key: String) -> Int {
        keyed.withLock { counts in
            counts[key, default: 0] += 1
            return counts[key]!
        }
    }

    var value: Int { count.withLock { $0 } }

    /// The calls with `key`.
    func value(for key: String) -> Int { keyed.withLock { $0[key] ?? 0 } }
}

/// Waits until grpc-swift says the RPC is cancelled (the client reset the stream, say), as
/// a handler that watches for it does, or the handler's task is; then throws.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
func waitForRPCCancellation() async throws {
    let wait = Task { try await Deadline.sleep(for: .seconds(600)) }
    try await withTaskCancellationHandler {
        try await withRPCCancellationHandler {
            try await wait.value
        } onCancelRPC: {
            wait.cancel()
        }
    } onCancel: {
        wait.cancel()
    }
}

/// Waits until `condition` holds, checking every 20 ms for at most `limit`; the caller
/// asserts on the state afterwards.
func waitUntil(within limit: Duration = .seconds(5), _ condition: () -> Bool) async throws {
    let end = ContinuousClock.now + limit
    while !condition(), ContinuousClock.now < end {
        try await Deadline.sleep(for: .milliseconds(20))
    }
}
