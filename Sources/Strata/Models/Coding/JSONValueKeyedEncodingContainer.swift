/// The keyed container of ``JSONValueEncoding``: writes the entries of one object.
struct JSONValueKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: JSONObjectStorage
    let context: JSONEncodingContext
    let codingPath: [any CodingKey]

    private func write(_ value: JSON, forKey key: Key) {
        storage.entries[key.stringValue] = .value(value)
    }

    private func path(_ key: Key) -> [any CodingKey] {
        codingPath + [key]
    }

    func encodeNil(forKey key: Key) throws { write(.null, forKey: key) }
    func encode(_ value: Bool, forKey key: Key) throws { write(.bool(value), forKey: key) }
    func encode(_ value: String, forKey key: Key) throws { write(.string(value), forKey: key) }
    func encode(_ value: Double, forKey key: Key) throws { write(try context.double(value, at: path(key)), forKey: key) }
    func encode(_ value: Float, forKey key: Key) throws { write(try context.float(value, at: path(key)), forKey: key) }
    func encode(_ value: Int, forKey key: Key) throws { write(.integer(value), forKey: key) }
    func encode(_ value: Int8, forKey key: Key) throws { write(try context.integer(value, at: path(key)), forKey: key) }
    func encode(_ value: Int16, forKey key: Key) throws { write(try context.integer(value, at: path(key)), forKey: key) }
    func encode(_ value: Int32, forKey key: Key) throws { write(try context.integer(value, at: path(key)), forKey: key) }
    func encode(_ value: Int64, forKey key: Key) throws { write(try context.integer(value, at: path(key)), forKey: key) }
    func encode(_ value: UInt, forKey key: Key) throws { write(try context.integer(value, at: path(key)), forKey: key) }
    func encode(_ value: UInt8, forKey key: Key) throws { write(try context.integer(value, at: path(key)), forKey: key) }
    func encode(_ value: UInt16, forKey key: Key) throws { write(try context.integer(value, at: path(key)), forKey: key) }
    func encode(_ value: UInt32, forKey key: Key) throws { write(try context.integer(value, at: path(key)), forKey: key) }
    func encode(_ value: UInt64, forKey key: Key) throws { write(try context.integer(value, at: path(key)), forKey: key) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: Int128, forKey key: Key) throws { write(try context.integer(value, at: path(key)), forKey: key) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: UInt128, forKey key: Key) throws { write(try context.integer(value, at: path(key)), forKey: key) }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        storage.entries[key.stringValue] = try context.nestedSlot(for: value, at: path(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested: JSONObjectStorage
        if case .object(let existing)? = storage.entries[key.stringValue] {
            nested = existing
        } else {
            nested = JSONObjectStorage()
            storage.entries[key.stringValue] = .object(nested)
        }
        return KeyedEncodingContainer(
            JSONValueKeyedEncodingContainer<NestedKey>(storage: nested, context: context, codingPath: path(key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested: JSONArrayStorage
        if case .array(let existing)? = storage.entries[key.stringValue] {
            nested = existing
        } else {
            nested = JSONArrayStorage()
            storage.entries[key.stringValue] = .array(nested)
        }
        return JSONValueUnkeyedEncodingContainer(storage: nested, context: context, codingPath: path(key))
    }

    func superEncoder() -> any Encoder {
        superEncoder(forKey: JSONCodingKey.super.stringValue, codingKey: JSONCodingKey.super)
    }

    func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(forKey: key.stringValue, codingKey: key)
    }

    private func superEncoder(forKey name: String, codingKey: any CodingKey) -> any Encoder {
        let node = JSONEncodingNode()
        storage.entries[name] = .node(node)
        return JSONValueEncoding(node: node, context: context, codingPath: codingPath + [codingKey])
    }
}
