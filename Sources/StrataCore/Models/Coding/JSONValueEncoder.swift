import Foundation

/// Encodes `Encodable` values straight into a ``JSON`` tree, with no bytes in between.
///
/// Used for the default ``RawEncodable/toRaw()`` and by ``URLEncodedFormEncoder``.
public struct JSONValueEncoder: Sendable {
    /// How `Date` values are written.
    public enum DateEncodingStrategy: Sendable {
        /// The `Date`'s own `Encodable` conformance (seconds since 2001-01-01, a double).
        case deferredToDate
        /// Seconds since 1970-01-01, a double.
        case secondsSince1970
        /// Milliseconds since 1970-01-01, a double.
        case millisecondsSince1970
        /// An ISO 8601 string, `2024-05-06T07:08:09Z`.
        case iso8601
        /// A value computed by the closure.
        case custom(@Sendable (Date) throws -> JSON)
    }

    /// How `Data` values are written.
    public enum DataEncodingStrategy: Sendable {
        /// The `Data`'s own `Encodable` conformance (an array of bytes).
        case deferredToData
        /// A Base64 string.
        case base64
        /// A value computed by the closure.
        case custom(@Sendable (Data) throws -> JSON)
    }

    /// How `Date` values are written; `.deferredToDate` by default, like `JSONEncoder`.
    public var dateEncodingStrategy: DateEncodingStrategy = .deferredToDate
    /// How `Data` values are written; `.base64` by default, like `JSONEncoder`.
    public var dataEncodingStrategy: DataEncodingStrategy = .base64
    /// When `true`, optional properties that are `nil` are written as `null` instead of
    /// being left out (synthesised `Codable` uses `encodeIfPresent`, which drops them).
    public var encodesNilOptionals = false

    /// Creates an encoder with the default strategies.
    public init() {}

    /// Encodes `value` into a ``JSON`` tree.
    /// - Throws: `EncodingError` when the value cannot be represented (for example a
    ///   non-finite double, or a container with no value).
    public func encode<T: Encodable>(_ value: T) throws -> JSON {
        try encodedSlot(value).resolved
    }

    /// Encodes `value` into the tree under construction, for a reader that walks it as it
    /// is (the form serializer) rather than as a finished ``JSON`` value.
    func encodedSlot<T: Encodable>(_ value: T) throws -> JSONEncodingSlot {
        let context = JSONEncodingContext(options: self)
        guard let slot = try context.slot(for: value, at: []) else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        if let failure = context.failure {
            throw failure
        }
        return slot
    }
}

/// The `Encoder` behind ``JSONValueEncoder``: writes one value into a ``JSONEncodingNode``.
struct JSONValueEncoding: Encoder {
    let node: JSONEncodingNode
    let context: JSONEncodingContext
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let container = JSONValueKeyedEncodingContainer<Key>(
            storage: objectStorage(), context: context, codingPath: codingPath)
        return KeyedEncodingContainer(container)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONValueUnkeyedEncodingContainer(storage: arrayStorage(), context: context, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONValueSingleValueEncodingContainer(node: node, context: context, codingPath: codingPath)
    }

    /// The object this encoder writes into. Asking twice gives the same object, so a
    /// subclass and its superclass can share one encoder, as with `JSONEncoder`.
    private func objectStorage() -> JSONObjectStorage {
        switch node.content {
        case nil:
            break
        case .object(let storage)?:
            return storage
        case .value(.object(let entries))?:
            let storage = JSONObjectStorage(members: JSONEncodingSlot.members(of: entries))
            node.content = .object(storage)
            return storage
        case let other?:
            context.fail(
                other.resolved, at: codingPath,
                "Cannot encode a keyed container where another kind of value was already encoded.")
            return JSONObjectStorage()
        }
        let storage = JSONObjectStorage()
        node.content = .object(storage)
        return storage
    }

    /// The array this encoder writes into; asking twice appends to the same array.
    private func arrayStorage() -> JSONArrayStorage {
        switch node.content {
        case nil:
            break
        case .array(let storage)?:
            return storage
        case .value(.array(let elements))?:
            let storage = JSONArrayStorage(elements: elements.map { .value($0) })
            node.content = .array(storage)
            return storage
        case let other?:
            context.fail(
                other.resolved, at: codingPath,
                "Cannot encode an unkeyed container where another kind of value was already encoded.")
            return JSONArrayStorage()
        }
        let storage = JSONArrayStorage()
        node.content = .array(storage)
        return storage
    }
}

/// State shared by every encoder and container taking part in one
/// ``JSONValueEncoder/encode(_:)`` call. Used on one thread only.
final class JSONEncodingContext {
    /// The strategies to apply.
    let options: JSONValueEncoder
    /// The first misuse of the `Encoder` API (for example two values written through
    /// one single-value container); thrown once the value has been encoded.
    private(set) var failure: EncodingError?

    init(options: JSONValueEncoder) {
        self.options = options
    }

    /// Records `description` as a failure at `codingPath`, unless one was recorded already.
    func fail(_ value: Any, at codingPath: [any CodingKey], _ description: String) {
        guard failure == nil else { return }
        failure = .invalidValue(value, .init(codingPath: codingPath, debugDescription: description))
    }
}

extension JSONEncodingContext {
    /// Encodes `value`, applying the strategies to `Date` and `Data` and passing
    /// ``JSON`` through. Returns `nil` when the value wrote nothing at all.
    func slot<T: Encodable>(for value: T, at codingPath: [any CodingKey]) throws -> JSONEncodingSlot? {
        if let json = value as? JSON { return .value(json) }
        if let date = value as? Date { return try slot(forDate: date, at: codingPath) }
        if let data = value as? Data { return try slot(forData: data, at: codingPath) }
        if let url = value as? URL { return .value(.string(url.absoluteString)) }
        if let decimal = value as? Decimal { return .value(try self.decimal(decimal, at: codingPath)) }
        return try encodeItself(value, at: codingPath)
    }

    /// Encodes `value` nested in a container: a value that wrote nothing becomes `{}`, as with `JSONEncoder`.
    func nestedSlot<T: Encodable>(for value: T, at codingPath: [any CodingKey]) throws -> JSONEncodingSlot {
        try slot(for: value, at: codingPath) ?? .value(.object([:]))
    }

    /// Lets `value` encode itself into a fresh encoder.
    private func encodeItself<T: Encodable>(_ value: T, at codingPath: [any CodingKey]) throws -> JSONEncodingSlot? {
        let node = JSONEncodingNode()
        try value.encode(to: JSONValueEncoding(node: node, context: self, codingPath: codingPath))
        return node.content
    }

    private func slot(forDate date: Date, at codingPath: [any CodingKey]) throws -> JSONEncodingSlot? {
        switch options.dateEncodingStrategy {
        case .deferredToDate:
            return try encodeItself(date, at: codingPath)
        case .secondsSince1970:
            return .value(try double(date.timeIntervalSince1970, at: codingPath))
        case .millisecondsSince1970:
            return .value(try double(date.timeIntervalSince1970 * 1000, at: codingPath))
        case .iso8601:
            return .value(.string(date.formatted(.iso8601)))
        case .custom(let closure):
            return .value(try closure(date))
        }
    }

    private func slot(forData data: Data, at codingPath: [any CodingKey]) throws -> JSONEncodingSlot? {
        switch options.dataEncodingStrategy {
        case .deferredToData:
            return try encodeItself(data, at: codingPath)
        case .base64:
            return .value(.string(data.base64EncodedString()))
        case .custom(let closure):
            return .value(try closure(data))
        }
    }
}

extension JSONEncodingContext {
    /// An integer of any width as ``JSON/integer(_:)``.
    /// - Throws: `EncodingError.invalidValue` when `value` does not fit in `Int`.
    func integer<I: BinaryInteger>(_ value: I, at codingPath: [any CodingKey]) throws -> JSON {
        guard let integer = Int(exactly: value) else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: codingPath, debugDescription: "Number \(value) does not fit in Int."))
        }
        return .integer(integer)
    }

    /// A finite double as ``JSON/double(_:)``.
    /// - Throws: `EncodingError.invalidValue` for infinities and NaN, as `JSONEncoder` does.
    func double(_ value: Double, at codingPath: [any CodingKey]) throws -> JSON {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: codingPath, debugDescription: "Unable to encode Double.\(value) directly in JSON."))
        }
        return .double(value)
    }

    /// A finite float as ``JSON/double(_:)``, through its shortest decimal spelling so
    /// that `Float(0.1)` becomes `0.1` (what `JSONEncoder` writes), not `0.10000000149011612`.
    func float(_ value: Float, at codingPath: [any CodingKey]) throws -> JSON {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: codingPath, debugDescription: "Unable to encode Float.\(value) directly in JSON."))
        }
        return .double(Double(value.description) ?? Double(value))
    }

    /// A decimal as ``JSON/double(_:)``, the nearest double to its decimal spelling.
    func decimal(_ value: Decimal, at codingPath: [any CodingKey]) throws -> JSON {
        guard let double = Double(value.description), double.isFinite else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: codingPath, debugDescription: "Unable to encode Decimal \(value) directly in JSON."))
        }
        return .double(double)
    }
}

/// One value in a ``JSON`` tree under construction.
///
/// Containers are reference-backed so that a nested container handed out earlier
/// still writes into the tree its parent will return.
enum JSONEncodingSlot {
    /// A finished value.
    case value(JSON)
    /// An object that a keyed container may still add to.
    case object(JSONObjectStorage)
    /// An array that an unkeyed container may still append to.
    case array(JSONArrayStorage)
    /// A value that an encoder (`superEncoder`) may still write.
    case node(JSONEncodingNode)

    /// The finished ``JSON`` value.
    var resolved: JSON {
        switch self {
        case .value(let value): value
        case .object(let storage):
            .object(Dictionary(uniqueKeysWithValues: storage.members.lazy.map { ($0.key, $0.slot.resolved) }))
        case .array(let storage): .array(storage.elements.map(\.resolved))
        case .node(let node): node.resolved
        }
    }
}

extension JSONEncodingSlot {
    /// The members of a finished object, each as a finished slot.
    static func members(of object: [String: JSON]) -> [(key: String, slot: JSONEncodingSlot)] {
        object.map { ($0.key, .value($0.value)) }
    }
}

/// The members of an object being encoded, in the order they were first written.
///
/// A list, not a dictionary: most objects have a handful of members, found faster by
/// comparing keys than by hashing them (and growing a hash table as they come). An index
/// by key is built once an object passes ``indexThreshold`` members, so a large encoded
/// dictionary does not cost one scan per member.
final class JSONObjectStorage {
    /// The members, each key once.
    private(set) var members: [(key: String, slot: JSONEncodingSlot)]
    /// Where each key is in ``members``; `nil` while there are few members.
    private var positions: [String: Int]?

    /// How many members are looked up by scanning ``members``.
    private static let indexThreshold = 16

    /// Storage holding `members`, whose keys must be distinct.
    init(members: [(key: String, slot: JSONEncodingSlot)] = []) {
        self.members = members
        if members.count > Self.indexThreshold { indexMembers() }
    }

    /// The slot stored under `key`, if any.
    func slot(forKey key: String) -> JSONEncodingSlot? {
        position(of: key).map { members[$0].slot }
    }

    /// Stores `slot` under `key`, in place of the member already there if there is one.
    func set(_ slot: JSONEncodingSlot, forKey key: String) {
        if let position = position(of: key) {
            members[position].slot = slot
            return
        }
        // Most objects have a few members: room for them at once, not grown one by one.
        if members.isEmpty { members.reserveCapacity(8) }
        members.append((key, slot))
        if positions != nil {
            positions?[key] = members.count - 1
        } else if members.count > Self.indexThreshold {
            indexMembers()
        }
    }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        return members.firstIndex { $0.key == key }
    }

    private func indexMembers() {
        positions = Dictionary(uniqueKeysWithValues: members.enumerated().lazy.map { ($1.key, $0) })
    }
}

/// The elements of an array being encoded.
final class JSONArrayStorage {
    var elements: [JSONEncodingSlot]

    init(elements: [JSONEncodingSlot] = []) {
        self.elements = elements
    }
}

/// What one encoder wrote: nothing yet, or one slot.
final class JSONEncodingNode {
    var content: JSONEncodingSlot?

    /// The finished value; an encoder that wrote nothing yields an empty object, as with `JSONEncoder`.
    var resolved: JSON {
        content?.resolved ?? .object([:])
    }

    /// The slot a parent container stores for this node once the value has been encoded.
    var slot: JSONEncodingSlot {
        content ?? .value(.object([:]))
    }
}
