import Foundation

/// The mutable state of one demo server: users (initial and registered), issued
/// tokens and the `/flaky` counters.
actor DemoStore {
    private var users = DemoUsers.initial
    private var nextUserID = (DemoUsers.initial.keys.max() ?? 0) + 1
    private var tokens: [String: Int] = [:]
    private var flakyCalls = 0
    private var flakyUploadCalls: [String: Int] = [:]

    /// The user with `id`, or `nil`.
    func user(id: Int) -> UserPayload? {
        users[id]
    }

    /// Page `page` (from 1) of the users whose name contains `term`, ignoring case, by id.
    func search(_ term: String, page: Int) -> [UserPayload] {
        let matches = users.keys.sorted().compactMap { id -> UserPayload? in
            guard let user = users[id] else { return nil }
            return term.isEmpty || user.name.localizedCaseInsensitiveContains(term) ? user : nil
        }
        let start = (page - 1) * DemoUsers.pageSize
        guard page > 0, start < matches.count else { return [] }
        return Array(matches[start..<min(start + DemoUsers.pageSize, matches.count)])
    }

    /// Stores a new user and returns its id.
    func register(_ user: UserPayload) -> Int {
        let id = nextUserID
        nextUserID += 1
        users[id] = user
        return id
    }

    /// A fresh token for the account, or `nil` when the login or password is wrong.
    func issueToken(login: String, password: String) -> String? {
        guard let account = DemoUsers.accounts[login], account.password == password else { return nil }
        let token = "demo-" + UUID().uuidString.lowercased()
        tokens[token] = account.userID
        return token
    }

    /// The user a token was issued for, or `nil` for an unknown token.
    func user(forToken token: String) -> UserPayload? {
        tokens[token].flatMap { users[$0] }
    }

    /// Counts a call to `/flaky` and returns its number, from 1.
    func nextFlakyCall() -> Int {
        flakyCalls += 1
        return flakyCalls
    }

    /// Counts a `PUT /flaky/:name` and returns its number for `name`, from 1.
    func nextFlakyUpload(_ name: String) -> Int {
        flakyUploadCalls[name, default: 0] += 1
        return flakyUploadCalls[name, default: 0]
    }

    /// How many `PUT /flaky/:name` there were for `name`.
    func flakyUploads(_ name: String) -> Int {
        flakyUploadCalls[name, default: 0]
    }
}
