import GRPCCore
import Strata
import StrataGRPCDemo

/// A service of the tests' own with a client-streaming and a bidirectional method, whose
/// request messages are `GetUserRequest`s:
///
/// - `Collect` reads every message and answers one `UserMessage` whose `name` is the ids it
///   read, comma-separated, and whose `age` is how many it read. With `fault` metadata
///   `fail-first:N:KEY`, the first `N` calls with key `KEY` read every message, then end with
///   `unavailable` (nothing answered: a call that may be sent again).
/// - `Chat` answers each message as it arrives with a `UserMessage` named `echo ID`, age `ID`,
///   with the metadata `x-chat: hello` and the trailing metadata `x-chat-answered: N`.
///   With `fail-after:N` it ends with `unavailable` after `N` answers; with `hang` it answers
///   nothing and waits until the call is cancelled (counted under `chat-cancelled`).
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
            let fault = request.metadata[stringValues: "fault"].first(where: { _ in true }) ?? ""
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
            if fault.hasPrefix("fail-first:") {
                let fields = fault.split(separator: ":").map(String.init)
                if calls.increment(fields[2]) <= Int(fields[1])! {
                    return StreamingServerResponse(error: RPCError(code: .unavailable, message: "not yet"))
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
            let fault = request.metadata[stringValues: "fault"].first(where: { _ in true }) ?? ""
            calls.increment("chat")
            return StreamingServerResponse(metadata: ["x-chat": "hello"]) { writer in
                if fault == "hang" {
                    do {
                        try await waitForRPCCancellation()
                    } catch {
                        calls.increment("chat-cancelled")
                        throw error
                    }
                }
                let failAfter = fault.hasPrefix("fail-after:") ? Int(fault.dropFirst("fail-after:".count)) : nil
                var answered = 0
                for try await bytes in request.messages {
                    if let failAfter, answered == failAfter {
                        throw RPCError(code: .unavailable, message: "gone after \(answered)")
                    }
                    let id = try Strata_Demo_V1_GetUserRequest(serializedBytes: bytes).id
                    let echo = Strata_Demo_V1_UserMessage.with {
                        $0.name = "echo \(id)"
                        $0.age = id
                    }
                    try await writer.write(try echo.serializedBytes())
                    answered += 1
                }
                return ["x-chat-answered": "\(answered)"]
            }
        }
    }
}
