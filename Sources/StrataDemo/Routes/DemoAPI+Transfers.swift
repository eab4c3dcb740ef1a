import Foundation
import Strata

extension DemoAPI {
    /// `GET /files/:name`, for ``Networker/download(_:to:idleTimeout:progress:)``.
    public func file(_ name: String) -> Endpoint<Data> {
        Endpoint(RequestDescription(route: route(FilesRoute.file(name))))
    }

    /// `GET /upload-host`: where resumable uploads go.
    public func uploadHost() -> Endpoint<UploadHost> {
        Endpoint(RequestDescription(route: route(FilesRoute.uploadHost)), decoding: UploadHost.self)
    }

    /// `POST /uploads/:name` on the upload host `origin`, for
    /// ``Networker/upload(_:from:stateFolder:idleTimeout:progress:)-(_,URL,_,_,_)``: the
    /// request that creates the upload, and the receipt that ends it.
    public func resumableUpload(to origin: URL, name: String) -> Endpoint<StoredUpload> {
        Endpoint(
            RequestDescription(
                route: origin.appendingPathComponent("uploads").appendingPathComponent(name), method: .post),
            decoding: StoredUpload.self)
    }

    /// `GET /users` with no search: every user, two a page, for
    /// ``Networker/pages(_:style:limit:)`` to number the pages.
    public func allUsers() -> Endpoint<UsersPage> {
        Endpoint(RequestDescription(route: route(UsersRoute.search)), model: UsersPage.self)
    }
}
