import Foundation
import Strata

extension DemoAPI {
    /// `GET /files/:name`, for ``Networker/download(_:to:idleTimeout:progress:)``.
    public func file(_ name: String) -> Endpoint<Data> {
        Endpoint(RequestDescription(route: route(FilesRoute.file(name))))
    }

    /// `GET /users` with no search: every user, two a page, for
    /// ``Networker/pages(_:style:limit:)`` to number the pages.
    public func allUsers() -> Endpoint<UsersPage> {
        Endpoint(RequestDescription(route: route(UsersRoute.search)), model: UsersPage.self)
    }
}
