extension Networker {
    /// The pages of `endpoint`, loaded one by one as they are iterated, following `style`.
    ///
    /// ```swift
    /// for try await users in networker.pages(usersEndpoint, style: .pageNumber("page")) {
    ///     print(users.count)  // a page: [User]
    /// }
    /// var names: [String] = []
    /// for try await user in networker.pages(usersEndpoint, style: .linkHeader).items {
    ///     names.append(user.name)
    /// }
    /// ```
    ///
    /// The style sets the paging query parameters on the endpoint's URL: leave them out of
    /// the endpoint's `parameters`. Each page is a call through this client (deadline,
    /// retries, cache, middleware).
    /// - Parameters:
    ///   - endpoint: the first page's request, and how a page is parsed.
    ///   - style: how one page leads to the next.
    ///   - limit: the most pages to load; the sequence ends after that many.
    public func pages<Page: Sendable>(_ endpoint: Endpoint<Page>, style: PageStyle<Page>, limit: Int = 100)
        -> Pages<Page>
    {
        Pages(networker: self, endpoint: endpoint, style: style, limit: limit)
    }
}
