/// Reading the decoder's own value, for `singleValueContainer()`.
extension JSONValueDecoding: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try options.unboxBool(value, at: codingPath) }
    func decode(_ type: String.Type) throws -> String { try options.unboxString(value, at: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try options.unboxDouble(value, at: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try options.unboxFloat(value, at: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try options.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try options.unboxInteger(value, as: type, at: codingPath) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try options.unboxInteger(value, as: type, at: codingPath) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try options.unboxInteger(value, as: type, at: codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try options.unbox(value, as: type, at: codingPath) }
}
