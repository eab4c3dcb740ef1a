// The keyed and unkeyed containers of ``JSONValueDecoding``.

/// The keyed container of ``JSONValueDecoding``: reads the entries of one object.
struct JSONValueKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: JSON]
    let options: JSONValueDecoder
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    /// The value under `key`.
    /// - Throws: `DecodingError.keyNotFound` when there is none.
    private func value(_ key: Key) throws -> JSON {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return value
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try options.unboxBool(value(key), at: path(key))
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try options.unboxString(value(key), at: path(key))
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try options.unboxDouble(value(key), at: path(key))
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try options.unboxFloat(value(key), at: path(key))
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(type, key) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(type, key) }

    private func integer<I: FixedWidthInteger>(_ type: I.Type, _ key: Key) throws -> I {
        try options.unboxInteger(value(key), as: type, at: path(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try options.unbox(value(key), as: type, at: path(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try JSONValueDecoding(value: value(key), options: options, codingPath: path(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONValueDecoding(value: value(key), options: options, codingPath: path(key)).unkeyedContainer()
    }

    /// A decoder for the value under `super`; `null` when there is none, as with `JSONDecoder`.
    func superDecoder() throws -> any Decoder {
        JSONValueDecoding(
            value: object[JSONCodingKey.super.stringValue] ?? .null,
            options: options,
            codingPath: codingPath + [JSONCodingKey.super])
    }

    /// A decoder for the value under `key`; `null` when there is none, as with `JSONDecoder`.
    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONValueDecoding(value: object[key.stringValue] ?? .null, options: options, codingPath: path(key))
    }
}

/// The unkeyed container of ``JSONValueDecoding``: reads the elements of one array in order.
struct JSONValueUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let array: [JSON]
    let options: JSONValueDecoder
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(array: [JSON], options: JSONValueDecoder, codingPath: [any CodingKey]) {
        self.array = array
        self.options = options
        self.codingPath = codingPath
    }

    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    /// The coding path of the current element.
    private var currentPath: [any CodingKey] { codingPath + [JSONCodingKey(index: currentIndex)] }

    /// The current element, without moving past it.
    /// - Throws: `DecodingError.valueNotFound` for `type` when the container is at its end.
    private func current(_ type: Any.Type) throws -> JSON {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: currentPath, debugDescription: "Unkeyed container is at end."))
        }
        return array[currentIndex]
    }

    /// Moves past the current element once it has been decoded into `result`.
    private mutating func advance<T>(returning result: T) -> T {
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        guard try current(Any?.self) == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        advance(returning: try options.unboxBool(current(type), at: currentPath))
    }

    mutating func decode(_ type: String.Type) throws -> String {
        advance(returning: try options.unboxString(current(type), at: currentPath))
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        advance(returning: try options.unboxDouble(current(type), at: currentPath))
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        advance(returning: try options.unboxFloat(current(type), at: currentPath))
    }

    mutating func decode(_ type: Int.Type) throws -> Int { advance(returning: try integer(type)) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { advance(returning: try integer(type)) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { advance(returning: try integer(type)) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { advance(returning: try integer(type)) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { advance(returning: try integer(type)) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { advance(returning: try integer(type)) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { advance(returning: try integer(type)) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { advance(returning: try integer(type)) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { advance(returning: try integer(type)) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { advance(returning: try integer(type)) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { advance(returning: try integer(type)) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { advance(returning: try integer(type)) }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        try options.unboxInteger(current(type), as: type, at: currentPath)
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        advance(returning: try options.unbox(current(type), as: type, at: currentPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try current(KeyedDecodingContainer<NestedKey>.self)
        let decoder = JSONValueDecoding(value: value, options: options, codingPath: currentPath)
        return advance(returning: try decoder.container(keyedBy: type))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let value = try current((any UnkeyedDecodingContainer).self)
        let decoder = JSONValueDecoding(value: value, options: options, codingPath: currentPath)
        return advance(returning: try decoder.unkeyedContainer())
    }

    mutating func superDecoder() throws -> any Decoder {
        let value = try current((any Decoder).self)
        return advance(returning: JSONValueDecoding(value: value, options: options, codingPath: currentPath))
    }
}
