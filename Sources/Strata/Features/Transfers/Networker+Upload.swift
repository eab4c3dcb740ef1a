import Foundation

extension Networker {
    /// Loads `endpoint` as ``response(for:)`` does, reporting how much of its request
    /// body (``RequestDescription/body``) the transport has taken to send.
    ///
    /// ```swift
    /// let photo = Endpoint<Receipt>(
    ///     RequestDescription(route: "https://api.example.com/photos", method: .post, body: .file(photoURL)),
    ///     decoding: Receipt.self)
    /// let receipt = try await networker.upload(photo) { progress in
    ///     print("\(Int((progress.fraction ?? 0) * 100)) %")
    /// }.value
    /// ```
    ///
    /// Progress starts at zero, grows with each chunk the transport reads (or, for a file
    /// `URLSession` sends by itself, with the bytes it reports sent), and ends at the
    /// body's length; it comes at most about 20 times a second (the last value
    /// always), from the task the transport reads the body in. A body sent again (a retry,
    /// a `307`/`308` redirect) counts again from zero.
    /// - Throws: ``StrataError`` as ``response(for:)`` does.
    public func upload<Response>(
        _ endpoint: Endpoint<Response>,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws(StrataError) -> EndpointResponse<Response> {
        var endpoint = endpoint
        if let body = endpoint.request.body {
            let (message, contentType): (MessageBody, String?)
            do {
                (message, contentType) = try body.encoded()
            } catch {
                throw StrataError(.encoding, underlying: error)
            }
            endpoint.request.body = .stream(message.reportingProgress(to: progress), contentType: contentType)
        }
        return try await response(for: endpoint)
    }
}

extension MessageBody {
    /// This body, reporting the bytes read from it to `handler` on each reading (see
    /// ``ProgressReporter``), or the bytes sent when a transport sends it from its
    /// ``file``; as replayable as this one.
    fileprivate func reportingProgress(to handler: @escaping @Sendable (TransferProgress) -> Void) -> MessageBody {
        let total = length
        let body = watched {
            let reading = Locked((reporter: ProgressReporter(total: total, handler: handler), completed: Int64(0)))
            reading.withLock { $0.reporter.reportStart() }
            return (
                chunk: { chunk in
                    reading.withLock { reading in
                        reading.completed += Int64(chunk.count)
                        reading.reporter.report(reading.completed, isFinal: reading.completed == total)
                    }
                },
                end: { error in
                    if error == nil { reading.withLock { $0.reporter.report($0.completed, isFinal: true) } }
                }
            )
        }
        guard let file else { return body }
        let reporter = Locked(ProgressReporter(total: total, handler: handler))
        return body.sent(from: file) { sent in
            reporter.withLock { reporter in
                reporter.reportStart()
                reporter.report(sent, isFinal: sent == total)
            }
        }
    }
}
