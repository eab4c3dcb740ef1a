#if GRPC
    import Foundation
    import GRPCCore
    import Strata
    import Synchronization

    /// Hands a streamed response's parts from the call's task to the stream's reader.
    ///
    /// grpc-swift gives a call's response parts to a handler that runs in the call's task and
    /// ends the call when it returns. The handler lends them here and waits; the reader
    /// iterates them in its own task, as the transport delivers them (no hop between tasks
    /// per message, nothing read ahead of the reader), then gives them back with how the
    /// reading ended, and waits for the call's outcome.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    final class GRPCPartsHandoff: Sendable {
        /// A streamed response's parts.
        typealias Parts = RPCAsyncSequence<StreamingClientResponse<Data>.Contents.BodyPart, any Error>

        private let parts = GRPCOneShot<Parts?>()
        private let returned = GRPCOneShot<(any Error)?>()
        private let outcome = GRPCOneShot<StrataError?>()

        /// In the call's task: lends `body` to the reader and waits until it gives them back.
        /// - Throws: the failure the reader gave them back with (the parts' own, or a message
        ///   that could not be parsed); `CancellationError` when the call's task is cancelled.
        func lend(_ body: Parts) async throws {
            parts.fulfil(body)
            let failure = await withTaskCancellationHandler {
                await returned.value
            } onCancel: {
                returned.fulfil(CancellationError())
            }
            if let failure { throw failure }
        }

        /// In the reader's task: the response's parts, or `nil` when the call ended without
        /// a response.
        func borrow() async -> Parts? {
            await parts.value
        }

        /// In the reader's task: the parts are read to their end (`nil`), or to `failure`.
        func giveBack(_ failure: (any Error)?) {
            returned.fulfil(failure)
        }

        /// In the call's task: the call ended, with `error` or not.
        func end(_ error: StrataError?) {
            parts.fulfil(nil)
            outcome.fulfil(error)
        }

        /// In the reader's task: how the call ended, once it did.
        func result() async -> StrataError? {
            await outcome.value
        }
    }

    /// A value set once, which any number of tasks wait for; the first value set stays.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    final class GRPCOneShot<Value: Sendable>: Sendable {
        private enum State {
            case pending([CheckedContinuation<Value, Never>])
            case set(Value)
        }

        private let state = Mutex<State>(.pending([]))

        /// Sets the value unless it is set, and resumes its waiters.
        func fulfil(_ value: Value) {
            let waiting: [CheckedContinuation<Value, Never>] = state.withLock { state in
                guard case .pending(let waiting) = state else { return [] }
                state = .set(value)
                return waiting
            }
            for waiter in waiting { waiter.resume(returning: value) }
        }

        /// The value, once it is set.
        var value: Value {
            get async {
                await withCheckedContinuation { continuation in
                    let value: Value? = state.withLock { state in
                        switch state {
                        case .set(let value):
                            return value
                        case .pending(var waiting):
                            waiting.append(continuation)
                            state = .pending(waiting)
                            return nil
                        }
                    }
                    if let value { continuation.resume(returning: value) }
                }
            }
        }
    }
#endif
