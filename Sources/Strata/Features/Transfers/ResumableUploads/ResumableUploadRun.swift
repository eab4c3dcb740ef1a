import Foundation
import HTTPTypes

/// One call of ``Networker/upload(_:from:stateFolder:idleTimeout:progress:)``: the upload
/// of one file or bytes, from finding or creating its resource to the last response.
struct ResumableUploadRun: Sendable {
    private let networker: Networker
    /// The endpoint's request head, without a body: method, URL and header fields.
    private let template: HTTPRequest
    private let options: CallValues
    private let attributes: [String: String]
    private let rule: RetryRule?
    private let source: UploadSource
    private let identity: SourceIdentity
    private let stateFile: URL?
    private let progress: UploadProgress
    private let idleTimeout: Duration?
    /// The upload resource, once there is one.
    private(set) var resource: URL?
    /// The bytes an earlier call's upload had left on the server.
    private(set) var resumedFrom: Int64 = 0
    /// The continuations after a lost connection.
    private(set) var resumptions = 0

    /// The `409`s in a row (the server holds another offset) taken before giving up.
    private static let maxConflicts = 5

    init<Response>(
        _ networker: Networker, endpoint: Endpoint<Response>, source: UploadSource, stateFolder: URL?,
        idleTimeout: Duration?, progress: (@Sendable (TransferProgress) -> Void)?
    ) throws(StrataError) {
        let template = try Self.template(of: endpoint, networker: networker)
        let identity: SourceIdentity
        do {
            identity = try source.identity()
        } catch {
            throw StrataError(.encoding, underlying: error)
        }
        self.identity = identity
        self.networker = networker
        self.template = template
        options = endpoint.options
        attributes = endpoint.attributes
        rule = endpoint.retry
        self.source = source
        self.idleTimeout = idleTimeout
        stateFile = stateFolder.map {
            ResumableUploadState.stateFile(
                in: $0, method: template.method.rawValue, url: template.url?.absoluteString ?? "",
                source: source.key(identity))
        }
        self.progress = UploadProgress(total: identity.size, handler: progress)
    }

    /// The request head `endpoint` describes, without a body.
    static func template<Response>(of endpoint: Endpoint<Response>, networker: Networker) throws(StrataError)
        -> HTTPRequest
    {
        var description = endpoint.request
        description.body = nil
        return try networker.encode(description, jsonEncoder: endpoint.jsonEncoder).head
    }

    /// Uploads the file: continues the saved upload, or asks the server and creates one,
    /// or sends the file plainly to a server without the protocol.
    /// - Returns: the last request, and its response with its body.
    mutating func run() async throws(StrataError) -> (HTTPRequest, HTTPResponse, Data) {
        if let (saved, held) = try await savedUpload() {
            resource = saved
            resumedFrom = held
            return try await append(to: saved, from: held)
        }
        var ask = template
        ask.method = .options
        ask.headerFields[ResumableUploadFields.interopVersion] = ResumableUploadFields.version
        let (answer, _) = try await exchange(ask, body: nil)
        guard ResumableUploadFields.speaksTheDraft(answer) else {
            let (response, body) = try await send(template, from: 0)
            if response.status.kind == .successful { progress.finish() }
            return (template, response, body)
        }
        let created = try await create()
        resource = created
        return try await append(to: created, from: 0)
    }

    /// The upload an earlier call saved for this file and the bytes the server holds of
    /// it, or `nil` when there is none to continue: none saved, a file that changed since
    /// (its upload is deleted), or one the server no longer has.
    private func savedUpload() async throws(StrataError) -> (URL, Int64)? {
        guard let stateFile, let saved = ResumableUploadState.load(from: stateFile) else { return nil }
        guard saved.source == identity else {
            await abandon(saved.resource)
            return nil
        }
        let (answer, _) = try await exchange(request(.head, saved.resource), body: nil)
        guard answer.status.kind == .successful, let held = ResumableUploadFields.offset(in: answer),
            held <= identity.size
        else {
            forget()
            return nil
        }
        progress.acknowledged(held)
        return (saved.resource, held)
    }

    /// Creates the upload, empty and incomplete, and saves its resource.
    private func create() async throws(StrataError) -> URL {
        var create = template
        create.headerFields[ResumableUploadFields.interopVersion] = ResumableUploadFields.version
        create.headerFields[ResumableUploadFields.complete] = "?0"
        create.headerFields[ResumableUploadFields.length] = String(identity.size)
        let (answer, body) = try await exchange(create, body: MessageBody(Data()))
        if answer.status.code == 413 {
            throw StrataError(
                .transfer,
                underlying: TransferError.lengthRefused(
                    length: identity.size, limit: ResumableUploadFields.maxSize(in: answer)),
                request: create, response: answer)
        }
        // A transport that hands over the `104` (upload resumption supported) as the answer
        // gives the resource as well as the final response would.
        guard answer.status.kind == .successful || answer.status.code == 104,
            let resource = ResumableUploadFields.resource(in: answer, relativeTo: template.url)
        else {
            throw StrataError(
                .unacceptableStatus, request: create, response: answer, body: body,
                bodyLimit: networker.configuration.errorBodyLimit)
        }
        if let stateFile {
            do {
                try ResumableUploadState(resource: resource, source: identity).save(to: stateFile)
            } catch {
                throw StrataError(.transfer, underlying: TransferError.fileSystem("\(error)"))
            }
        }
        return resource
    }

    /// Appends the file from `offset` to `resource` until the server has it all, asking
    /// the offset again after a lost connection.
    private mutating func append(to resource: URL, from offset: Int64) async throws(StrataError) -> (
        HTTPRequest, HTTPResponse, Data
    ) {
        var offset = offset
        var conflicts = 0
        while true {
            guard source.isUnchanged(since: identity) else {
                await abandon(resource)
                throw StrataError(.transfer, underlying: TransferError.fileChanged)
            }
            var append = request(.patch, resource)
            append.headerFields[ResumableUploadFields.offset] = String(offset)
            append.headerFields[ResumableUploadFields.complete] = "?1"
            append.headerFields[.contentType] = "application/partial-upload"
            do throws(StrataError) {
                let (answer, body) = try await send(append, from: offset)
                switch answer.status.code {
                case 409 where conflicts < Self.maxConflicts:
                    // The server holds another offset (bytes of a cut connection it was
                    // still taking in when asked): it says which, or is asked.
                    conflicts += 1
                    offset = try await checked(ResumableUploadFields.offset(in: answer), of: resource)
                    continue
                case 404, 410:
                    forget()
                    throw StrataError(
                        .transfer, underlying: TransferError.uploadGone(status: answer.status.code), request: append,
                        response: answer)
                case 413:
                    await abandon(resource)
                    throw StrataError(
                        .transfer,
                        underlying: TransferError.lengthRefused(
                            length: identity.size, limit: ResumableUploadFields.maxSize(in: answer)),
                        request: append, response: answer)
                default:
                    if answer.status.kind == .successful {
                        forget()
                        progress.finish()
                    }
                    return (append, answer, body)
                }
            } catch  where error.kind == .transport {
                guard
                    let wait = networker.retryStep?.waitToResume(after: error, rule: rule, continued: resumptions)
                else { throw error }
                resumptions += 1
                try await RetryMiddleware.backOff(wait)
                offset = try await checked(nil, of: resource)
                conflicts = 0
            }
        }
    }

    /// The offset to continue `resource` from: `offset` when the server gave one, else
    /// the server's answer to `HEAD`; checked against the bytes sent.
    private func checked(_ offset: Int64?, of resource: URL) async throws(StrataError) -> Int64 {
        var held = offset
        if held == nil {
            let ask = request(.head, resource)
            let (answer, body) = try await exchange(ask, body: nil)
            if [404, 410].contains(answer.status.code) {
                forget()
                throw StrataError(
                    .transfer, underlying: TransferError.uploadGone(status: answer.status.code), request: ask,
                    response: answer)
            }
            held = answer.status.kind == .successful ? ResumableUploadFields.offset(in: answer) : nil
            guard held != nil else {
                throw StrataError(
                    .unacceptableStatus, request: ask, response: answer, body: body,
                    bodyLimit: networker.configuration.errorBodyLimit)
            }
        }
        let sent = progress.sent
        guard let held, held <= sent, held <= identity.size else {
            await abandon(resource)
            throw StrataError(.transfer, underlying: TransferError.offsetBeyondSent(offset: held ?? 0, sent: sent))
        }
        progress.acknowledged(held)
        return held
    }

    /// A request of the protocol to `resource`, with the endpoint's header fields when the
    /// resource is on the endpoint's origin (a server's `Location` elsewhere gets none of
    /// them: they may be credentials).
    private func request(_ method: HTTPRequest.Method, _ resource: URL) -> HTTPRequest {
        var request = ResumableUploadFields.request(method, resource)
        guard request.scheme == template.scheme, request.authority == template.authority else { return request }
        for field in template.headerFields where request.headerFields[field.name] == nil {
            request.headerFields.append(field)
        }
        return request
    }

    /// Sends `request` with the source from `offset` to its end as its body, under the idle
    /// timeout when there is one.
    private func send(_ request: HTTPRequest, from offset: Int64) async throws(StrataError) -> (HTTPResponse, Data) {
        let body = progress.body(of: source, from: offset)
        guard let idleTimeout else { return try await exchange(request, body: body) }
        return try await IdleWatch(timeout: idleTimeout) { [progress] in progress.lastRead }
            .run(request) { () throws(StrataError) in try await exchange(request, body: body) }
    }

    /// Sends `request` as a call of the client, and reads the response's body.
    private func exchange(_ request: HTTPRequest, body: MessageBody?) async throws(StrataError) -> (
        HTTPResponse, Data
    ) {
        let (head, responseBody) = try await networker.send(
            request, body: body, options: options, attributes: attributes)
        do {
            return (head, try await responseBody.collect(upTo: networker.configuration.maxResponseBodySize))
        } catch {
            throw .readingBody(of: head, failedWith: error)
        }
    }

    /// Deletes the upload at `resource`, whatever the answer, and forgets it.
    private func abandon(_ resource: URL) async {
        _ = try? await exchange(request(.delete, resource), body: nil)
        forget()
    }

    /// Removes the saved state.
    private func forget() {
        if let stateFile { try? FileManager.default.removeItem(at: stateFile) }
    }
}
