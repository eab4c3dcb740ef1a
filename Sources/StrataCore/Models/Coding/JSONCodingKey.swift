/// A coding key made up on the fly: array indices and the `super` key in coding paths.
struct JSONCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    /// The key of the element at `index` in an unkeyed container.
    init(index: Int) {
        self.init(intValue: index)
    }

    /// The key `superEncoder()` and `superDecoder()` use.
    static let `super` = JSONCodingKey(stringValue: "super")
}
