/// Holds the bearer token the tour signed in with, for ``HeadersMiddleware/bearerToken(_:)``.
actor TokenStore {
    private(set) var token: String?

    func store(_ token: String?) { self.token = token }
}
