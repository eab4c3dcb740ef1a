import GRPCCore
import Strata
import StrataGRPCDemo

/// A service of the tests' own with a client-streaming and a bidirectional method, whose
/// request messages are `GetUserRequest`s:
///
/// - `Collect` reads every message and answers one `UserMessage` whose `name` is the ids it
///   read, comma-separated, and whose `age` is how many it read. With `fault` metadata:
///   - `fail-first:N:KEY`: the first `N` calls with key `KEY` read every message, then end
///     with `unavailable` (nothing answered: a call that may be sent again);
///   - `status:CODE`: reads every message, then ends with that status code;
///   - `auth`: reads every message, then answers only when the `authorization` metadata is
///     `Bearer fresh` (`unauthenticated` otherwise), counting the calls under `auth`;
///   - `hang-first:N:KEY`: the first `N` calls with key `KEY` read every message and never
///     answer (until cancelled, counted under `KEY-cancelled`);
///   - `slow:MS`: reads each message MS milliseconds after the one before, without decoding
///     it (any bytes), and answers with `age` the count and `name` the total bytes.
/// - `Chat` answers each message as it arrives with a `UserMessage` named `echo ID`, age `ID`,
///   with the metadata `x-chat: hello` and the trailing metadata `x-chat-answered: N`.
///   With `fail-after:N` it ends with `unavailable` after `N` answers; with `hang` it answers
///   nothing and waits until the call is cancelled (counted under `chat-cancelled`); with
///   `auth` it answers only when the `authorization` metadata is `Bearer fresh`
///   (`unauthenticated` before any answer otherwise); with `big:SIZE` each answer's `name`
///   is `SIZE` bytes of `x` instead. A chat whose stream the client reset (grpc-swift
///   cancels the handler, or its writes fail) is counted under `chat-broken`; one whose
///   request messages ended (the client half-closed) under `chat-ended`.
///
/// ``received`` holds, per call, the ids each call read, in order.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
struct StreamService: RegistrableRPCService {
    static let collect = MethodDescriptor(fullyQualifiedService: "strata.test.Streams", method: "Collect")
    static let chat = MethodDescriptor(fullyQualifiedService: "strata.test.Streams", method: "Chat")

    let calls = CallCounter()
    private let log = Locked<[[Int64]]>([])

    /// The ids each call read, by call, in the order the calls began reading.
    var received: [[Int64]] { log.withLock { $0 } }

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        let calls = self.calls
        let log = self.log
        router.registerHandler(forMethod: Self.collect, deserializer: BytesCoder(), serializer: BytesCoder()) {
            request, _ in
            let fault = Fault(request.metadata)
            if let pause = fault.argument("slow").flatMap(Int.init) {
                var (count, bytes) = (0, 0)
                for try await message in request.messages {
                    count += 1
                    bytes += message.count
                    try await Deadline.sleep(for: .milliseconds(pause))
                }
                let answer = Strata_Demo_V1_UserMessage.with {
                    $0.name = "\(bytes)"
                    $0.age = Int64(count)
                }
                return StreamingServerResponse(single: ServerResponse(message: try answer.serializedBytes()))
            }
            let call = log.withLock { log in
                log.append([])
                return log.count - 1
            }
            var ids: [Int64] = []
            for try await bytes in request.messages {
                let id = try Strata_Demo_V1_GetUserRequest(serializedBytes: bytes).id
                ids.append(id)
                log.withLock { $0[call].append(id) }
            }
            if let fields = fault.fields("fail-first"), calls.increment(fields[1]) <= Int(fields[0])! {
                return StreamingServerResponse(error: RPCError(code: .unavailable, message: "not yet"))
            }
            if let code = fault.argument("status").flatMap(Int.init) {
                let status = RPCError.Code(Status.Code(rawValue: code)!)!
                return StreamingServerResponse(error: RPCError(code: status, message: "fault \(code)"))
            }
            if let refusal = fault.authenticationRefusal(calls) { return StreamingServerResponse(error: refusal) }
            if let fields = fault.fields("hang-first"), calls.increment(fields[1]) <= Int(fields[0])! {
                do {
                    try await waitForRPCCancellation()
                } catch {
                    calls.increment("\(fields[1])-cancelled")
                    throw error
                }
            }
            let answer = Strata_Demo_V1_UserMessage.with {
                $0.name = ids.map(String.init).joined(separator: ",")
                $0.age = Int64(ids.count)
            }
            return StreamingServerResponse(single: ServerResponse(message: try answer.serializedBytes()))
        }
        router.registerHandler(forMethod: Self.chat, deserializer: BytesCoder(), serializer: BytesCoder()) {
            request, _ in
            let fault = Fault(request.metadata)
            calls.increment("chat")
            if let refusal = fault.authenticationRefusal(calls) { return StreamingServerResponse(error: refusal) }
            return StreamingServerResponse(metadata: ["x-chat": "hello"]) { writer in
                if fault.value == "hang" {
                    do {
                        try await waitForRPCCancellation()
                    } catch {
                        calls.increment("chat-cancelled")
                        throw error
                    }
                }
                let failAfter = fault.argument("fail-after").flatMap(Int.init)
                let big = fault.argument("big").flatMap(Int.init).map { String(repeating: "x", count: $0) }
                // A reset stream either cancels the handler or fails its reads or writes first
                // (which of the two grpc-swift reports first varies): counted once either way.
                let broken = Locked(false)
                let markBroken = { @Sendable in
                    if broken.withLock({ broken in
                        defer { broken = true }
                        return !broken
                    }) {
                        calls.increment("chat-broken")
                    }
                }
                let answered = try await withRPCCancellationHandler {
                    var answered = 0
                    for try await bytes in request.messages {
                        if let failAfter, answered == failAfter {
                            throw RPCError(code: .unavailable, message: "gone after \(answered)")
                        }
                        let id = try Strata_Demo_V1_GetUserRequest(serializedBytes: bytes).id
                        let echo = Strata_Demo_V1_UserMessage.with {
                            $0.name = big ?? "echo \(id)"
                            $0.age = id
                        }
                        do {
                            try await writer.write(try echo.serializedBytes())
                        } catch {
                            markBroken()
                            throw error
                        }
                        answered += 1
                    }
                    calls.increment("chat-ended")
                    return answered
                } onCancelRPC: {
                    markBroken()
                }
                return ["x-chat-answered": "\(answered)"]
            }
        }
    }
}

/// A call's `fault` metadata, `NAME` or `NAME:FIELD:...`.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private struct Fault {
    let value: String
    let authorization: String?

    init(_ metadata: Metadata) {
        value = metadata[stringValues: "fault"].first(where: { _ in true }) ?? ""
        authorization = metadata[stringValues: "authorization"].first(where: { _ in true })
    }

    /// The fields after `name:`, when the fault is `name`.
    func fields(_ name: String) -> [String]? {
        guard value.hasPrefix(name + ":") else { return nil }
        return value.dropFirst(name.count + 1).split(separator: ":").map(String.init)
    }

    /// The one field after `name:`, when the fault is `name`.
    func argument(_ name: String) -> String? { fields(name)?.first }

    /// For the fault `auth`: `unauthenticated` unless the call's credential is fresh (the
    /// call counted under `auth`); `nil` for other faults and fresh credentials.
    func authenticationRefusal(_ calls: CallCounter) -> RPCError? {
        guard value == "auth" else { return nil }
        calls.increment("auth")
        return authorization == "Bearer fresh" ? nil : RPCError(code: .unauthenticated, message: "stale")
    }
}
