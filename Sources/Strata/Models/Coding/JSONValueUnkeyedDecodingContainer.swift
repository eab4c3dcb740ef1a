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
            throw DecodingError.valueNotFound(type, .init(
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
