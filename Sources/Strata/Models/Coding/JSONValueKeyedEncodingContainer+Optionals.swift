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
