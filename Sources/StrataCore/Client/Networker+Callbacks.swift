/// A load started with ``Networker/load(_:completion:)``; cancel it to stop the request.
public struct LoadTask: Sendable {
    private let task: Task<Void, Never>

    package init(_ task: Task<Void, Never>) {
        self.task = task
    }

    /// Stops the request; the completion receives ``StrataError/Kind/cancelled``
    /// unless the response already arrived.
    public func cancel() {
        task.cancel()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { task.isCancelled }
}

extension Networker {
    /// Loads `endpoint` and calls `completion` with the result, for callback-based code
    /// (the Endpoint + Networker + Result pattern's `networker.load(endpoint) { result in … }`).
    ///
    /// `completion` runs once, on a background task, not on the main thread.
    /// - Returns: a handle whose ``LoadTask/cancel()`` stops the request.
    @discardableResult
    public func load<Response>(
        _ endpoint: Endpoint<Response>,
        completion: @escaping @Sendable (Result<Response, StrataError>) -> Void
    ) -> LoadTask {
        LoadTask(
            Task {
                do throws(StrataError) {
                    completion(.success(try await send(endpoint)))
                } catch {
                    completion(.failure(error))
                }
            })
    }
}
