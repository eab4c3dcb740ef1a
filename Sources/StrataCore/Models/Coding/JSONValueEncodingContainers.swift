// The keyed, unkeyed and single-value containers of ``JSONValueEncoding``.

/// The keyed container of ``JSONValueEncoding``: writes the entries of one object.
struct JSONValueKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: JSONObjectStorage
    let context: JSONEncodingContext
    let codingPath: [any CodingKey]

    private func write(_ value: JSON, forKey key: Key) {
        storage.set(.value(value), forKey: key.stringValue)
    }

    private func path(_ key: Key) -> [any CodingKey] {
        codingPath + [key]
    }

    func encodeNil(forKey key: Key) throws { write(.null, forKey: key) }
    func encode(_ value: Bool, forKey key: Key) throws { write(.bool(value), forKey: key) }
    func encode(_ value: String, forKey key: Key) throws { write(.string(value), forKey: key) }
    func encode(_ value: Double, forKey key: Key) throws {
        write(try context.double(value, at: path(key)), forKey: key)
    }
    func encode(_ value: Float, forKey key: Key) throws { write(try context.float(value, at: path(key)), forKey: key) }
    func encode(_ value: Int, forKey key: Key) throws { write(.integer(value), forKey: key) }
    func encode(_ value: Int8, forKey key: Key) throws { write(try context.integer(value, at: path(key)), forKey: key) }
    func encode(_ value: Int16, forKey key: Key) throws {
        write(try context.integer(value, at: path(key)), forKey: key)
    }
    func encode(_ value: Int32, forKey key: Key) throws {
        write(try context.integer(value, at: path(key)), forKey: key)
    }
    func encode(_ value: Int64, forKey key: Key) throws {
        write(try context.integer(value, at: path(key)), forKey: key)
    }
    func encode(_ value: UInt, forKey key: Key) throws { write(try context.integer(value, at: path(key)), forKey: key) }
    func encode(_ value: UInt8, forKey key: Key) throws {
        write(try context.integer(value, at: path(key)), forKey: key)
    }
    func encode(_ value: UInt16, forKey key: Key) throws {
        write(try context.integer(value, at: path(key)), forKey: key)
    }
    func encode(_ value: UInt32, forKey key: Key) throws {
        write(try context.integer(value, at: path(key)), forKey: key)
    }
    func encode(_ value: UInt64, forKey key: Key) throws {
        write(try context.integer(value, at: path(key)), forKey: key)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: Int128, forKey key: Key) throws {
        write(try context.integer(value, at: path(key)), forKey: key)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: UInt128, forKey key: Key) throws {
        write(try context.integer(value, at: path(key)), forKey: key)
    }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        storage.set(try context.nestedSlot(for: value, at: path(key)), forKey: key.stringValue)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested: JSONObjectStorage
        if case .object(let existing)? = storage.slot(forKey: key.stringValue) {
            nested = existing
        } else {
            nested = JSONObjectStorage()
            storage.set(.object(nested), forKey: key.stringValue)
        }
        return KeyedEncodingContainer(
            JSONValueKeyedEncodingContainer<NestedKey>(storage: nested, context: context, codingPath: path(key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested: JSONArrayStorage
        if case .array(let existing)? = storage.slot(forKey: key.stringValue) {
            nested = existing
        } else {
            nested = JSONArrayStorage()
            storage.set(.array(nested), forKey: key.stringValue)
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
        storage.set(.node(node), forKey: name)
        return JSONValueEncoding(node: node, context: context, codingPath: codingPath + [codingKey])
    }
}

/// `encodeIfPresent` for every type, so that ``JSONValueEncoder/encodesNilOptionals``
/// can write `null` where synthesised `Codable` would leave a `nil` property out.
extension JSONValueKeyedEncodingContainer {
    /// Writes `null` for a `nil` optional when the encoder is asked to; otherwise writes nothing.
    private func encodeAbsent(forKey key: Key) throws {
        if context.options.encodesNilOptionals {
            try encodeNil(forKey: key)
        }
    }

    func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encodeIfPresent(_ value: Int128?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encodeIfPresent(_ value: UInt128?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }

    func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
}

/// The unkeyed container of ``JSONValueEncoding``: appends the elements of one array.
struct JSONValueUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let storage: JSONArrayStorage
    let context: JSONEncodingContext
    let codingPath: [any CodingKey]

    var count: Int { storage.elements.count }

    /// The coding path of the element about to be appended.
    private var nextPath: [any CodingKey] {
        codingPath + [JSONCodingKey(index: count)]
    }

    private func append(_ value: JSON) {
        storage.elements.append(.value(value))
    }

    func encodeNil() throws { append(.null) }
    func encode(_ value: Bool) throws { append(.bool(value)) }
    func encode(_ value: String) throws { append(.string(value)) }
    func encode(_ value: Double) throws { append(try context.double(value, at: nextPath)) }
    func encode(_ value: Float) throws { append(try context.float(value, at: nextPath)) }
    func encode(_ value: Int) throws { append(.integer(value)) }
    func encode(_ value: Int8) throws { append(try context.integer(value, at: nextPath)) }
    func encode(_ value: Int16) throws { append(try context.integer(value, at: nextPath)) }
    func encode(_ value: Int32) throws { append(try context.integer(value, at: nextPath)) }
    func encode(_ value: Int64) throws { append(try context.integer(value, at: nextPath)) }
    func encode(_ value: UInt) throws { append(try context.integer(value, at: nextPath)) }
    func encode(_ value: UInt8) throws { append(try context.integer(value, at: nextPath)) }
    func encode(_ value: UInt16) throws { append(try context.integer(value, at: nextPath)) }
    func encode(_ value: UInt32) throws { append(try context.integer(value, at: nextPath)) }
    func encode(_ value: UInt64) throws { append(try context.integer(value, at: nextPath)) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: Int128) throws { append(try context.integer(value, at: nextPath)) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: UInt128) throws { append(try context.integer(value, at: nextPath)) }

    func encode<T: Encodable>(_ value: T) throws {
        storage.elements.append(try context.nestedSlot(for: value, at: nextPath))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let nested = JSONObjectStorage()
        storage.elements.append(.object(nested))
        return KeyedEncodingContainer(
            JSONValueKeyedEncodingContainer<NestedKey>(storage: nested, context: context, codingPath: path))
    }

    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let nested = JSONArrayStorage()
        storage.elements.append(.array(nested))
        return JSONValueUnkeyedEncodingContainer(storage: nested, context: context, codingPath: path)
    }

    func superEncoder() -> any Encoder {
        let path = nextPath
        let node = JSONEncodingNode()
        storage.elements.append(.node(node))
        return JSONValueEncoding(node: node, context: context, codingPath: path)
    }
}

/// The single-value container of ``JSONValueEncoding``: writes one value into its node.
struct JSONValueSingleValueEncodingContainer: SingleValueEncodingContainer {
    let node: JSONEncodingNode
    let context: JSONEncodingContext
    let codingPath: [any CodingKey]

    /// Stores `slot`, unless a value was written already (a misuse `JSONEncoder` traps on;
    /// here it is reported as an error once encoding finishes).
    private func write(_ slot: JSONEncodingSlot) {
        if let existing = node.content {
            context.fail(
                existing.resolved, at: codingPath,
                "Cannot encode a second value through a single value container.")
            return
        }
        node.content = slot
    }

    private func write(_ value: JSON) { write(.value(value)) }

    func encodeNil() throws { write(.null) }
    func encode(_ value: Bool) throws { write(.bool(value)) }
    func encode(_ value: String) throws { write(.string(value)) }
    func encode(_ value: Double) throws { write(try context.double(value, at: codingPath)) }
    func encode(_ value: Float) throws { write(try context.float(value, at: codingPath)) }
    func encode(_ value: Int) throws { write(.integer(value)) }
    func encode(_ value: Int8) throws { write(try context.integer(value, at: codingPath)) }
    func encode(_ value: Int16) throws { write(try context.integer(value, at: codingPath)) }
    func encode(_ value: Int32) throws { write(try context.integer(value, at: codingPath)) }
    func encode(_ value: Int64) throws { write(try context.integer(value, at: codingPath)) }
    func encode(_ value: UInt) throws { write(try context.integer(value, at: codingPath)) }
    func encode(_ value: UInt8) throws { write(try context.integer(value, at: codingPath)) }
    func encode(_ value: UInt16) throws { write(try context.integer(value, at: codingPath)) }
    func encode(_ value: UInt32) throws { write(try context.integer(value, at: codingPath)) }
    func encode(_ value: UInt64) throws { write(try context.integer(value, at: codingPath)) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: Int128) throws { write(try context.integer(value, at: codingPath)) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: UInt128) throws { write(try context.integer(value, at: codingPath)) }

    func encode<T: Encodable>(_ value: T) throws {
        write(try context.nestedSlot(for: value, at: codingPath))
    }
}
