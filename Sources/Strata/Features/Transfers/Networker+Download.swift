import Foundation
import HTTPTypes

/// What a finished download came to.
public struct DownloadResult: Sendable {
    /// Where the file is now: the destination.
    public let file: URL
    /// Its size.
    public let bytes: Int64
    /// How many bytes of the file came from an earlier attempt: the partial file's size when
    /// the server continued it (`206`) or confirmed it complete (`416`), and 0 when the last
    /// response sent the whole file (`200`: a fresh start, or a file that changed since).
    public let resumedFrom: Int64
    /// How many times this call asked for the rest after the body failed mid-way (with
    /// the client's ``RetryMiddleware``).
    public let retries: Int
    /// The last response's head (`200`, `206`, or `416` for a partial file already complete).
    public let response: HTTPResponse
}

extension Networker {
    /// Downloads `endpoint`'s response body to the file at `destination`, resuming an
    /// earlier attempt where it stopped.
    ///
    /// ```swift
    /// let result = try await networker.download(videoEndpoint, to: moviesFolder.appendingPathComponent("clip.mp4")) {
    ///     print("\(Int(($0.fraction ?? 0) * 100)) %")
    /// }
    /// ```
    ///
    /// The body streams into `<destination>.strata-partial` (memory stays bounded) and is
    /// moved onto `destination` only when it is complete — its length matches the one the
    /// server declared, when it declared one. A failed or cancelled download leaves the
    /// partial file with `<destination>.strata-partial.json` (the URL, and the strong
    /// `ETag` or else `Last-Modified` of the response), so the next call — in this process
    /// or after a restart — asks for the rest with `Range: bytes=N-` and `If-Range`:
    /// a `206` whose `Content-Range` starts at `N` is appended, a `200` (the server changed
    /// the file, or does not do ranges) starts again from zero, and a `416` for a partial
    /// file that already holds everything completes it. Two versions of a file are never
    /// spliced together. A response with a content coding (which transports decode) or
    /// with neither validator is not resumed: a failure there removes the partial file,
    /// and the next call starts over.
    ///
    /// Each attempt is a call through the client's middleware; its deadline covers the wait
    /// for the head, and each read of the body must deliver within `idleTimeout`. When the
    /// client has a ``RetryMiddleware``, a body that fails mid-way with one of its policy's
    /// failures (the connection lost, a read past `idleTimeout`) is continued in the same
    /// call rather than started again, under the policy's attempt limit, backoff and
    /// budget, and the endpoint's ``Endpoint/retry`` rule.
    /// - Parameters:
    ///   - endpoint: the file's request; its parse function is not used.
    ///   - destination: where the file goes; an existing file there is replaced.
    ///   - idleTimeout: how long one read of the body may wait for bytes.
    ///   - progress: called with the bytes so far, at most about 20 times a second and
    ///     once more at the end, from the task running the download.
    /// - Throws: ``StrataError``: the call's own failures, and
    ///   ``StrataError/Kind/transfer`` (``TransferError``) when the file cannot be written
    ///   or the response does not continue or complete it.
    public func download<Response>(
        _ endpoint: Endpoint<Response>,
        to destination: URL,
        idleTimeout: Duration? = .seconds(60),
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(StrataError) -> DownloadResult {
        var retries = 0
        while true {
            do {
                return try await downloadAttempt(
                    endpoint, to: destination, idleTimeout: idleTimeout, retries: retries, progress: progress)
            } catch {
                guard
                    let wait = retryStep?.waitToContinue(
                        after: error, method: endpoint.request.method, rule: endpoint.retry, continued: retries)
                else { throw error }
                retries += 1
                try await RetryMiddleware.backOff(wait)
            }
        }
    }

    /// One attempt of ``download(_:to:idleTimeout:progress:)``, the `retries + 1`th.
    private func downloadAttempt<Response>(
        _ endpoint: Endpoint<Response>,
        to destination: URL,
        idleTimeout: Duration?,
        retries: Int,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(StrataError) -> DownloadResult {
        let partial = DownloadState.partialFile(for: destination)
        let stateFile = DownloadState.stateFile(for: destination)
        let source = (try? endpoint.request.route.url().absoluteString) ?? ""
        var request = endpoint.validation(ResponseValidation(statusCodes: Array(200..<300) + [416]))
        var offset: Int64 = 0
        if let saved = DownloadState.load(from: stateFile), saved.url == source,
            let size = try? MultipartFileInfo.size(ofRegularFileAt: partial), size > 0
        {
            offset = size
            request = request.header(.range, "bytes=\(size)-").header(.ifRange, saved.validator)
        } else {
            Self.remove(partial, stateFile)
        }
        let (head, body) = try await stream(request, idleTimeout: idleTimeout)
        var total: Int64?
        switch head.status.code {
        case 206:
            let contentRange = head.headerFields[.contentRange]
            guard let range = ContentRange(contentRange), range.range?.lowerBound == offset else {
                Self.remove(partial, stateFile)
                throw StrataError(
                    .transfer,
                    underlying: TransferError.unexpectedRange(expectedStart: offset, contentRange: contentRange),
                    response: head)
            }
            total = range.completeLength
        case 416:
            guard offset > 0, ContentRange(head.headerFields[.contentRange]) == ContentRange(nil, of: offset) else {
                Self.remove(partial, stateFile)
                throw StrataError(.unacceptableStatus, response: head)
            }
            return try Self.complete(
                partial, stateFile, destination, bytes: offset, resumedFrom: offset, retries: retries, head,
                progress)
        default:
            offset = 0
            total = body.length
        }
        // A content-coded body arrives decoded, so its length on disk is no offset into what
        // a range would count: such a download starts over rather than resume.
        let isContentCoded = head.headerFields[.contentEncoding].map { $0.lowercased() != "identity" } ?? false
        let validator = isContentCoded ? nil : DownloadState.validator(of: head.headerFields)
        if let validator {
            try Self.fileSystem {
                try DownloadState(url: source, validator: validator, total: total).save(to: stateFile)
            }
        } else {
            Self.remove(stateFile)
        }
        let received: Int64
        do {
            received = try await Self.write(body, to: partial, at: offset, total: total, head: head, progress)
        } catch {
            if validator == nil { Self.remove(partial) }  // nothing to resume against: no file left behind
            throw error
        }
        if let total, received != total {
            throw StrataError(
                .transfer, underlying: TransferError.lengthMismatch(expected: total, received: received), response: head
            )
        }
        return try Self.complete(
            partial, stateFile, destination, bytes: received, resumedFrom: offset, retries: retries, head,
            progress)
    }

    /// Appends `body` to `file` from `offset` (truncating there), reporting progress.
    /// - Returns: the file's length when the body ended.
    private static func write(
        _ body: MessageBody, to file: URL, at offset: Int64, total: Int64?, head: HTTPResponse,
        _ progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(StrataError) -> Int64 {
        let handle: FileHandle
        do {
            if offset == 0 || !FileManager.default.fileExists(atPath: file.path) {
                guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                    throw TransferError.fileSystem("cannot create \(file.path)")
                }
            }
            handle = try FileHandle(forWritingTo: file)
            // A new file is empty already: truncating it to zero would make ext4 flush it
            // all to disk on close (auto_da_alloc), which cost a 256 MiB download a fifth
            // of its speed.
            if offset > 0 {
                try handle.truncate(atOffset: UInt64(offset))
                try handle.seek(toOffset: UInt64(offset))
            }
        } catch {
            throw StrataError(.transfer, underlying: error as? TransferError ?? .fileSystem("\(error)"), response: head)
        }
        defer { try? handle.close() }
        var completed = offset
        var reporter = ProgressReporter(total: total, handler: progress)
        reporter.report(completed)
        do {
            for try await chunk in body {
                do {
                    try handle.write(contentsOf: chunk)
                } catch {
                    throw StrataError(.transfer, underlying: TransferError.fileSystem("\(error)"), response: head)
                }
                completed += Int64(chunk.count)
                reporter.report(completed)
            }
        } catch {
            throw .readingBody(of: head, failedWith: error)
        }
        return completed
    }

    /// Moves the finished partial file onto `destination` and forgets the saved state.
    private static func complete(
        _ partial: URL, _ stateFile: URL, _ destination: URL, bytes: Int64, resumedFrom: Int64, retries: Int,
        _ head: HTTPResponse, _ progress: (@Sendable (TransferProgress) -> Void)?
    ) throws(StrataError) -> DownloadResult {
        try fileSystem {
            if FileManager.default.fileExists(atPath: destination.path) {
                try FileManager.default.removeItem(at: destination)
            }
            try FileManager.default.moveItem(at: partial, to: destination)
        }
        remove(stateFile)
        progress?(TransferProgress(completed: bytes, total: bytes))
        return DownloadResult(
            file: destination, bytes: bytes, resumedFrom: resumedFrom, retries: retries, response: head)
    }

    private static func fileSystem(_ work: () throws -> Void) throws(StrataError) {
        do {
            try work()
        } catch {
            throw StrataError(.transfer, underlying: TransferError.fileSystem("\(error)"))
        }
    }

    private static func remove(_ files: URL...) {
        for file in files { try? FileManager.default.removeItem(at: file) }
    }
}
