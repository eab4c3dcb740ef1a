import Foundation

extension JSON {
    /// The value as the Foundation objects `JSONSerialization` gives: `[String: Any]`,
    /// `[Any]`, `String`, `NSNumber` (for numbers and booleans) and `NSNull`.
    ///
    /// For code written against `JSONSerialization`, such as the parse functions of the
    /// Endpoint + Networker + Result pattern (`json as? [String: Any]`, then
    /// `dictionary["id"] as? Int`): numbers are `NSNumber`, so `as? Int`, `as? Double` and
    /// `as? Bool` read them as they read `JSONSerialization`'s output.
    ///
    /// ```swift
    /// let user: JSON = ["name": "Ann", "age": 31]
    /// let object = user.foundationObject as? [String: Any]
    /// let age = object?["age"] as? Int   // 31
    /// ```
    public var foundationObject: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): NSNumber(value: value)
        case .integer(let value): NSNumber(value: value)
        case .double(let value): NSNumber(value: value)
        case .string(let value): value
        case .array(let values): values.map(\.foundationObject)
        case .object(let members): members.mapValues(\.foundationObject)
        }
    }
}
