/// The `Decoder` behind ``JSONValueDecoder``: reads one ``JSON`` value.
///
/// It is its own single-value container.
struct JSONValueDecoding: Decoder {
    let value: JSON
    let options: JSONValueDecoder
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch value {
        case .object(let object):
            return KeyedDecodingContainer(
                JSONValueKeyedDecodingContainer<Key>(object: object, options: options, codingPath: codingPath))
        case .null:
            throw DecodingError.valueNotFound([String: Any].self, .init(
                codingPath: codingPath, debugDescription: "Cannot get keyed decoding container -- found null value instead."))
        default:
            throw JSONValueDecoder.mismatch([String: Any].self, value, at: codingPath)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let array):
            return JSONValueUnkeyedDecodingContainer(array: array, options: options, codingPath: codingPath)
        case .null:
            throw DecodingError.valueNotFound([Any].self, .init(
                codingPath: codingPath, debugDescription: "Cannot get unkeyed decoding container -- found null value instead."))
        default:
            throw JSONValueDecoder.mismatch([Any].self, value, at: codingPath)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }
}
