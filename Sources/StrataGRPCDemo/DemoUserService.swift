import GRPCCore
import StrataDemo
import StrataDemoServer

/// The demo's `strata.demo.v1.UserService` over the users the HTTP demo starts with:
/// `GetUser` answers what `GET /users/:id` answers, as a `UserMessage`; `ListPhotos`
/// streams that user's photos; `UploadPhotos` takes many photos and answers what it would
/// add (the users' albums do not change: every upload starts from the same albums);
/// `Chat` is a room whose host answers each line.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct DemoUserService: Strata_Demo_V1_UserService.SimpleServiceProtocol {
    private let users: [Int64: UserEntry]
    private let faults = DemoServiceFaults()

    /// Creates the service over the demo's initial users.
    public init() {
        var users: [Int64: UserEntry] = [:]
        for (id, payload) in DemoUsers.initial {
            users[Int64(id)] = UserEntry(
                name: payload.name, age: payload.age, type: UserType(rawValue: payload.type) ?? .member,
                photos: payload.photos.map { PhotoEntry(id: $0.id, ref: $0.ref) })
        }
        self.users = users
    }

    /// One user; `NOT_FOUND` when there is no user with that id.
    /// `GetUser`, after the faults its metadata asks for (see ``DemoServiceFaults``).
    public func getUser(
        request: ServerRequest<Strata_Demo_V1_GetUserRequest>, context: ServerContext
    ) async throws -> ServerResponse<Strata_Demo_V1_UserMessage> {
        try faults.check(request.metadata)
        return ServerResponse(message: try await getUser(request: request.message, context: context), metadata: [:])
    }

    public func getUser(
        request: Strata_Demo_V1_GetUserRequest, context: ServerContext
    ) async throws -> Strata_Demo_V1_UserMessage {
        try user(request.id).toMessage()
    }

    /// The user's photos, one message each; `NOT_FOUND` when there is no such user.
    public func listPhotos(
        request: Strata_Demo_V1_ListPhotosRequest,
        response: RPCWriter<Strata_Demo_V1_PhotoMessage>,
        context: ServerContext
    ) async throws {
        for photo in try user(request.userID).photos {
            try await response.write(photo.toMessage())
        }
    }

    /// Adds each photo unless its id is in the album already (or came earlier in this
    /// upload) or there is no such user; answers the counts and the refused ids.
    public func uploadPhotos(
        request: RPCAsyncSequence<Strata_Demo_V1_UploadPhotoRequest, any Error>, context: ServerContext
    ) async throws -> Strata_Demo_V1_UploadSummary {
        var known = Set(users.values.flatMap { $0.photos.map(\.id) })
        var summary = Strata_Demo_V1_UploadSummary()
        var users = Set<Int64>()
        for try await upload in request {
            guard self.users[upload.userID] != nil, known.insert(upload.photo.id).inserted else {
                summary.refusedIds.append(upload.photo.id)
                continue
            }
            summary.added += 1
            users.insert(upload.userID)
        }
        summary.users = Int64(users.count)
        return summary
    }

    /// Shows each line as the room does (the line itself), then the host's answer to it:
    /// `host: AUTHOR, that was line N`, or `host: bye, AUTHOR` to a line that says `bye`.
    public func chat(
        request: RPCAsyncSequence<Strata_Demo_V1_ChatLine, any Error>,
        response: RPCWriter<Strata_Demo_V1_ChatLine>,
        context: ServerContext
    ) async throws {
        var count = 0
        for try await line in request {
            count += 1
            try await response.write(line)
            try await response.write(
                .with {
                    $0.author = "host"
                    $0.text = line.text == "bye" ? "bye, \(line.author)" : "\(line.author), that was line \(count)"
                })
        }
    }

    private func user(_ id: Int64) throws -> UserEntry {
        guard let user = users[id] else { throw RPCError(code: .notFound, message: "no user \(id)") }
        return user
    }
}
