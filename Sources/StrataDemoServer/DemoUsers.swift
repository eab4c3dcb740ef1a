/// The users every demo server starts with, by id (`package`: the gRPC demo serves them too).
package enum DemoUsers {
    /// Ann (id 1, an owner with two photos) is the account behind the demo login.
    package static let initial: [Int: UserPayload] = [
        1: user("Ann", age: 30, type: 0, id: 1, photos: 2),
        2: user("Bob", age: 25, type: 1, id: 2, photos: 1),
        3: user("Cleo", age: 41, type: 1, id: 3, photos: 0),
        4: user("Dan", age: 35, type: 1, id: 4, photos: 3),
        5: user("Hanna", age: 28, type: 1, id: 5, photos: 1),
        6: user("Ivan", age: 52, type: 1, id: 6, photos: 1),
    ]

    /// The demo login: `ann` / `p@ss word` (the space and `@` exercise form encoding).
    static let accounts: [String: (password: String, userID: Int)] = [
        "ann": (password: "p@ss word", userID: 1)
    ]

    /// How many users a search page holds.
    static let pageSize = 2

    private static func user(_ name: String, age: Int, type: Int, id: Int, photos: Int) -> UserPayload {
        let slug = name.lowercased()
        return UserPayload(
            name: name, age: age, type: type,
            photos: (0..<photos).map { index in
                PhotoRefPayload(id: "\(id)-\(index + 1)", ref: "https://img.example/\(slug)/\(index + 1).jpg")
            })
    }
}
