import Foundation
import HTTPTypes

/// Where resumable uploads keep what lets a later call continue them.
public enum ResumableUploads {
    /// `Strata/Uploads` in the user's Application Support folder (on Linux,
    /// `~/.local/share`): beside the app's data, kept across launches.
    public static var defaultStateFolder: URL {
        let support =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return support.appendingPathComponent("Strata", isDirectory: true)
            .appendingPathComponent("Uploads", isDirectory: true)
    }
}

/// What a finished resumable upload came to.
public struct ResumableUploadResult<Value> {
    /// The last response, parsed by the endpoint.
    public let response: EndpointResponse<Value>
    /// The upload resource the server created, or `nil` when the server does not speak
    /// the resumable upload protocol and the file went in one ordinary request.
    public let resource: URL?
    /// How many bytes the server already held when this call began: an earlier call's
    /// upload of the same file, continued.
    public let resumedFrom: Int64
    /// How many times this call continued after a lost connection.
    public let resumptions: Int
}

extension ResumableUploadResult: Sendable where Value: Sendable {}

extension Networker {
    /// Uploads the file at `file` as `endpoint`'s body with the resumable upload protocol
    /// (draft-ietf-httpbis-resumable-upload, interop version 6) when the server speaks it,
    /// continuing after a lost connection — in this call, or in a later one after the
    /// process was killed — from the bytes the server holds.
    ///
    /// ```swift
    /// let video = Endpoint<Receipt>(
    ///     RequestDescription(route: "https://api.example.com/videos", method: .post), decoding: Receipt.self)
    /// let result = try await networker.upload(video, from: clipURL) { progress in
    ///     print("\(Int((progress.fraction ?? 0) * 100)) %")
    /// }
    /// print(result.response.value, "continued from byte", result.resumedFrom)
    /// ```
    ///
    /// The server is asked first (`OPTIONS` with `Upload-Draft-Interop-Version`); one that
    /// does not answer with the draft's fields gets the file in one ordinary request. With
    /// one that does, the upload is created with the endpoint's method, URL and header
    /// fields, empty and incomplete (`Upload-Complete: ?0`, `Upload-Length`), and the file
    /// appended to the resource the server names (`Location`) with `PATCH` and
    /// `Upload-Offset`, read in bounded chunks. When the connection fails, the offset is
    /// asked with `HEAD` and the rest sent, as often as the client's ``RetryMiddleware``
    /// allows (its policy's failures, attempts, backoff and budget; the endpoint's
    /// ``Endpoint/retry`` rule `never` turns it off). Without one, the error is thrown and
    /// the next call continues.
    ///
    /// The resource and the file's identity (size, modification date, a hash of its first
    /// 64 KiB) are saved in `stateFolder` until the upload ends, so that a later call for
    /// the same endpoint URL and file continues it. A file that changed since starts a
    /// new upload (the old one is deleted); two versions are never spliced together.
    ///
    /// Every request is a call through the client's steps, under its deadline
    /// (``Configuration/timeout``): give a large file a deadline it can be sent within,
    /// or each request ends at the deadline and the next continues where it stopped.
    /// Progress counts the bytes the server acknowledged plus those handed to the
    /// transport since; it never goes back, and it ends at the file's size.
    /// - Parameters:
    ///   - endpoint: the upload's request (method, URL, header fields); its body is not
    ///     sent, the file is. Its parse function reads the last response.
    ///   - file: the regular file to upload.
    ///   - stateFolder: where the upload's state is kept while it is unfinished; `nil`
    ///     keeps none (a later call starts over).
    ///   - idleTimeout: the longest a request may go with no byte of its body taken by the
    ///     transport and no answer (a server that stopped reading, a connection that hangs
    ///     without failing) before it ends as a transport timeout and the upload continues
    ///     from the server's offset, as after a lost connection; `nil` for none.
    ///   - progress: called with the bytes so far, at most about 20 times a second and
    ///     once more at the end, from the task running the upload.
    /// - Throws: ``StrataError``: the calls' own failures, and
    ///   ``StrataError/Kind/transfer`` (``TransferError``) when the server holds more
    ///   than was sent, the upload is gone (`404`, `410`), the server refuses the length
    ///   (`413`), or the file changed during the upload.
    public func upload<Response>(
        _ endpoint: Endpoint<Response>,
        from file: URL,
        stateFolder: URL? = ResumableUploads.defaultStateFolder,
        idleTimeout: Duration? = .seconds(60),
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(StrataError) -> ResumableUploadResult<Response> {
        try await upload(
            endpoint, source: .file(file), stateFolder: stateFolder, idleTimeout: idleTimeout, progress: progress)
    }

    /// Uploads `bytes` as `endpoint`'s body with the resumable upload protocol, as
    /// ``upload(_:from:stateFolder:idleTimeout:progress:)-(_,URL,_,_,_)`` uploads a file:
    /// for a body made in memory (a compressed log bundle, an encoded photo).
    ///
    /// The upload is saved under the bytes' size and a hash of them all, so that the same
    /// bytes given to a later call, after the process was killed, continue it; other
    /// bytes start an upload of their own.
    /// - Parameters:
    ///   - endpoint: the upload's request (method, URL, header fields); its body is not
    ///     sent, `bytes` are. Its parse function reads the last response.
    ///   - bytes: what to upload.
    ///   - stateFolder: where the upload's state is kept while it is unfinished; `nil`
    ///     keeps none (a later call starts over).
    ///   - idleTimeout: the longest a request may go with no byte of its body taken and no
    ///     answer before it ends as a timeout and the upload continues; `nil` for none.
    ///   - progress: called with the bytes so far, as for a file.
    /// - Throws: ``StrataError``, as for a file (bytes in memory never change).
    public func upload<Response>(
        _ endpoint: Endpoint<Response>,
        from bytes: Data,
        stateFolder: URL? = ResumableUploads.defaultStateFolder,
        idleTimeout: Duration? = .seconds(60),
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(StrataError) -> ResumableUploadResult<Response> {
        try await upload(
            endpoint, source: .bytes(bytes), stateFolder: stateFolder, idleTimeout: idleTimeout, progress: progress)
    }

    private func upload<Response>(
        _ endpoint: Endpoint<Response>,
        source: UploadSource,
        stateFolder: URL?,
        idleTimeout: Duration?,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(StrataError) -> ResumableUploadResult<Response> {
        let start = ContinuousClock.now
        var upload = try ResumableUploadRun(
            self, endpoint: endpoint, source: source, stateFolder: stateFolder, idleTimeout: idleTimeout,
            progress: progress)
        let (request, head, body) = try await upload.run()
        try (endpoint.validation ?? configuration.validation)
            .validate(head, body: body, for: request, errorBodyLimit: configuration.errorBodyLimit)
        let value = try parse(body, of: head, for: request, with: endpoint)
        return ResumableUploadResult(
            response: EndpointResponse(
                value: value, request: request, head: head, body: body, duration: start.duration(to: .now)),
            resource: upload.resource, resumedFrom: upload.resumedFrom, resumptions: upload.resumptions)
    }

    /// Deletes the unfinished upload of `file` with `endpoint` that a call of
    /// ``upload(_:from:stateFolder:idleTimeout:progress:)-(_,URL,_,_,_)`` left in
    /// `stateFolder` (`DELETE` to its resource), and forgets it: for an upload the app
    /// abandons.
    /// - Returns: whether there was one.
    /// - Throws: ``StrataError`` when the endpoint's URL cannot be built, or the `DELETE`
    ///   fails (the state is kept then, to try again).
    @discardableResult
    public func abandonUpload<Response>(
        _ endpoint: Endpoint<Response>,
        from file: URL,
        stateFolder: URL = ResumableUploads.defaultStateFolder
    ) async throws(StrataError) -> Bool {
        try await abandonUpload(endpoint, source: .file(file), stateFolder: stateFolder)
    }

    /// Deletes the unfinished upload of `bytes` with `endpoint` that a call of
    /// ``upload(_:from:stateFolder:idleTimeout:progress:)-(_,Data,_,_,_)`` left in
    /// `stateFolder`, and forgets it, as for a file.
    /// - Returns: whether there was one.
    /// - Throws: ``StrataError`` as for a file.
    @discardableResult
    public func abandonUpload<Response>(
        _ endpoint: Endpoint<Response>,
        from bytes: Data,
        stateFolder: URL = ResumableUploads.defaultStateFolder
    ) async throws(StrataError) -> Bool {
        try await abandonUpload(endpoint, source: .bytes(bytes), stateFolder: stateFolder)
    }

    private func abandonUpload<Response>(
        _ endpoint: Endpoint<Response>, source: UploadSource, stateFolder: URL
    ) async throws(StrataError) -> Bool {
        let template = try ResumableUploadRun.template(of: endpoint, networker: self)
        let stateFile = ResumableUploadState.stateFile(
            in: stateFolder, method: template.method.rawValue, url: template.url?.absoluteString ?? "",
            source: source.key(try? source.identity()))
        guard let saved = ResumableUploadState.load(from: stateFile) else { return false }
        let (answer, body) = try await send(
            ResumableUploadFields.request(.delete, saved.resource), body: nil, options: endpoint.options,
            attributes: endpoint.attributes)
        await body.discard()
        guard answer.status.kind == .successful || [404, 410].contains(answer.status.code) else {
            throw StrataError(.unacceptableStatus, response: answer)
        }
        try? FileManager.default.removeItem(at: stateFile)
        return true
    }
}
