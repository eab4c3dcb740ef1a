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
