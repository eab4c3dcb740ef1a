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
            let storage = JSONObjectStorage(entries: entries.mapValues { .value($0) })
            node.content = .object(storage)
            return storage
        case let other?:
            context.fail(other.resolved, at: codingPath,
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
            context.fail(other.resolved, at: codingPath,
                         "Cannot encode an unkeyed container where another kind of value was already encoded.")
            return JSONArrayStorage()
        }
        let storage = JSONArrayStorage()
        node.content = .array(storage)
        return storage
    }
}
