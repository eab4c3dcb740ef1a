import Hummingbird

/// `GET /users/:id`, `GET /users`, `GET /photos/:id` and `POST /users/:id/avatar`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum UserRoutes {
    /// The photo ids `/photos/:id` knows.
    static let photoIDs = 1...5000

    static func register(on router: Router<BasicRequestContext>, store: DemoStore) {
        router.get("users/:id") { _, context in
            guard let id = context.parameters.get("id", as: Int.self) else {
                return Responses.error("the user id must be a number", status: .badRequest)
            }
            guard let user = await store.user(id: id) else {
                return Responses.error("no user with id \(id)", status: .notFound)
            }
            return Responses.json(user)
        }
        router.get("users") { request, _ in
            let query = request.uri.queryParameters
            let term = query["search"].map(String.init) ?? ""
            let pageText = query["page"].map(String.init) ?? "1"
            guard let page = Int(pageText), page > 0 else {
                return Responses.error("page must be a positive number", status: .badRequest)
            }
            return Responses.json(UsersPagePayload(page: page, users: await store.search(term, page: page)))
        }
        router.get("photos/:id") { _, context in
            guard let id = context.parameters.get("id", as: Int.self), photoIDs.contains(id) else {
                return Responses.error("no such photo", status: .notFound)
            }
            return Responses.json(
                PhotoPayload(
                    id: id, albumId: (id - 1) / 50 + 1, title: "Photo \(id)",
                    url: "https://img.example/p/\(id).jpg", thumbnailUrl: "https://img.example/p/\(id)-t.jpg"))
        }
        router.post("users/:id/avatar") { request, context in
            try await avatar(request, context: context, store: store)
        }
    }

    private static func avatar(_ request: Request, context: BasicRequestContext, store: DemoStore) async throws
        -> Response
    {
        var request = request
        guard let id = context.parameters.get("id", as: Int.self), await store.user(id: id) != nil else {
            return Responses.error("no such user", status: .notFound)
        }
        guard request.mediaType == "multipart/form-data",
            let boundary = request.headers[.contentType].flatMap(MultipartParser.boundary(fromContentType:))
        else {
            return Responses.error("expected a multipart/form-data body with a boundary", status: .badRequest)
        }
        let body = try await request.bodyBytes()
        guard let parts = MultipartParser.parts(of: body, boundary: boundary) else {
            return Responses.error("the multipart body is malformed", status: .badRequest)
        }
        guard let part = parts.first(where: { $0.filename != nil }) ?? parts.first, let name = part.name else {
            return Responses.error("the multipart body has no named part", status: .badRequest)
        }
        return Responses.json(
            AvatarPayload(
                field: name, filename: part.filename, bytes: part.byteCount,
                contentType: part.contentType))
    }
}
