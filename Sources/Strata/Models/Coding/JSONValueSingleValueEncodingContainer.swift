/// The single-value container of ``JSONValueEncoding``: writes one value into its node.
struct JSONValueSingleValueEncodingContainer: SingleValueEncodingContainer {
    let node: JSONEncodingNode
    let context: JSONEncodingContext
    let codingPath: [any CodingKey]

    /// Stores `slot`, unless a value was written already (a misuse `JSONEncoder` traps on;
    /// here it is reported as an error once encoding finishes).
    private func write(_ slot: JSONEncodingSlot) {
        if let existing = node.content {
            context.fail(existing.resolved, at: codingPath,
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
