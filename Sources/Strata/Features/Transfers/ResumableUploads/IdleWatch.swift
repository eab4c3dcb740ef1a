import Foundation
import HTTPTypes

/// The idle timeout of a request with a body: a request whose transport takes no byte of
/// its body, and that gets no answer, for the timeout (a server that stopped reading, a
/// connection that hangs without failing, an answer that never comes once the last bytes
/// sat in the socket's buffers) ends as a transport timeout, which a resumable upload
/// continues from the server's offset.
struct IdleWatch: Sendable {
    /// The longest the transport may take no byte.
    let timeout: Duration
    /// When the transport last took a byte of the body.
    let lastRead: @Sendable () -> ContinuousClock.Instant

    private enum Outcome: Sendable {
        case answered(Result<(HTTPResponse, Data), StrataError>)
        case stalled
        case stopped
    }

    /// Runs `exchange`, cancelling it when it stalls.
    /// - Throws: the exchange's ``StrataError``; a stall as ``StrataError/Kind/transport``
    ///   (``TransportError/Kind/timedOut``) for `request`.
    func run(
        _ request: HTTPRequest, _ exchange: @escaping @Sendable () async throws(StrataError) -> (HTTPResponse, Data)
    ) async throws(StrataError) -> (HTTPResponse, Data) {
        let (answer, stalled) = await withTaskGroup(of: Outcome.self) { group in
            group.addTask {
                do throws(StrataError) {
                    return .answered(.success(try await exchange()))
                } catch {
                    return .answered(.failure(error))
                }
            }
            group.addTask { await watch() }
            var answer: Result<(HTTPResponse, Data), StrataError> = .failure(StrataError(.cancelled))
            var stalled = false
            while let outcome = await group.next() {
                switch outcome {
                case .answered(let result):
                    answer = result
                    group.cancelAll()
                case .stalled:
                    stalled = true
                    group.cancelAll()
                case .stopped: break
                }
            }
            return (answer, stalled)
        }
        // A stall is the request's deadline passing: the call's one rule makes it a timeout.
        if stalled, case .failure(let error) = answer, error.kind == .cancelled {
            throw StrataError.ending(
                error, request: request, response: error.response, deadlinePassed: true, taskCancelled: false)
        }
        return try answer.get()
    }

    /// Returns `.stalled` once the transport took no byte for the timeout, `.stopped` when
    /// the watch is cancelled (the exchange ended).
    private func watch() async -> Outcome {
        while true {
            let due = lastRead() + timeout
            guard due > .now else { return .stalled }
            do {
                try await Deadline.sleep(for: ContinuousClock.now.duration(to: due))
            } catch {
                return .stopped
            }
        }
    }
}
