/// Writes a ``JSON`` object as `application/x-www-form-urlencoded` text.
///
/// Nested values are flattened into `key=value` pairs whose keys spell out the path,
/// `user[tags][]=a`; the keys and values are then percent-escaped and joined with `&`.
/// Empty arrays and empty objects write nothing.
///
/// Each pair is escaped straight into the output: the key of the value being written is
/// kept, unescaped, in one buffer that grows as the walk goes down a level and shrinks
/// as it comes back, so no key or pair is ever made as a string of its own.
struct URLEncodedFormSerializer: Sendable {
    /// Whether the members of every object are written in key order.
    let alphabetizeKeyValuePairs: Bool
    /// How array elements are keyed.
    let arrayEncoding: URLEncodedFormEncoder.ArrayEncoding
    /// How booleans are written.
    let boolEncoding: URLEncodedFormEncoder.BoolEncoding
    /// How `null` is written.
    let nilEncoding: URLEncodedFormEncoder.NilEncoding
    /// How nested object keys are joined to their parent key.
    let objectEncoding: URLEncodedFormEncoder.ObjectEncoding
    /// How the key of every object member is written.
    let keyEncoding: URLEncodedFormEncoder.KeyEncoding
    /// Escapes keys and values.
    let escaper: URLQueryEscaper

    /// The text being written and the key of the value being written.
    private struct Output {
        /// The escaped pairs written so far, joined with `&`.
        var text: [UInt8] = []
        /// The unescaped key of the value being written: `user[tags][]`.
        var key: [UInt8] = []
    }

    /// One member of an object: its key and its value.
    private typealias Member = (key: String, slot: JSONEncodingSlot)

    /// Serializes `root`, which must be an object, as the text's UTF-8 bytes (all ASCII).
    /// - Throws: ``ParameterEncodingError`` when `root` is not an object.
    func serialize(_ root: JSON) throws -> [UInt8] {
        try serialize(.value(root))
    }

    /// Serializes `root`, an encoded value's tree as ``JSONValueEncoder`` builds it, which
    /// must be an object: read as it is, never made into a ``JSON`` value first.
    /// - Throws: ``ParameterEncodingError`` when `root` is not an object.
    func serialize(_ root: JSONEncodingSlot) throws -> [UInt8] {
        guard let members = Self.members(of: root) else {
            throw ParameterEncodingError(
                reason: "URL-encoded form parameters must be a keyed object, found \(root.resolved.kindName)"
            )
        }
        var output = Output()
        output.text.reserveCapacity(members.count * 24)
        output.key.reserveCapacity(32)
        try appendMembers(members, nested: false, to: &output)
        return output.text
    }

    /// The members of `slot` when it is an object, in the order it holds them.
    private static func members(of slot: JSONEncodingSlot) -> [Member]? {
        switch slot {
        case .object(let storage): storage.members
        case .value(.object(let members)): JSONEncodingSlot.members(of: members)
        case .node(let node): members(of: node.slot)
        case .value, .array: nil
        }
    }

    /// Appends the pairs of every member of an object stored under `output.key` (the root
    /// object when `nested` is `false`). Keys are converted by ``keyEncoding`` before they
    /// are sorted.
    private func appendMembers(_ members: [Member], nested: Bool, to output: inout Output) throws {
        var ordered = members
        switch keyEncoding {
        case .useDefaultKeys: break
        case .convertToSnakeCase, .custom:
            for index in ordered.indices { ordered[index].key = keyEncoding.encode(ordered[index].key) }
        }
        if alphabetizeKeyValuePairs { ordered.sort { $0.key < $1.key } }
        for (name, slot) in ordered {
            let parentEnd = output.key.endIndex
            if nested {
                switch objectEncoding {
                case .brackets:
                    output.key.append(UInt8(ascii: "["))
                    output.key.append(contentsOf: name.utf8)
                    output.key.append(UInt8(ascii: "]"))
                case .dots:
                    output.key.append(UInt8(ascii: "."))
                    output.key.append(contentsOf: name.utf8)
                }
            } else {
                output.key.append(contentsOf: name.utf8)
            }
            try append(slot, to: &output)
            output.key.removeSubrange(parentEnd...)
        }
    }

    /// Appends the pairs of every element of an array stored under `output.key`.
    private func appendElements(_ elements: [JSONEncodingSlot], to output: inout Output) throws {
        let parentEnd = output.key.endIndex
        // A dropped `null` takes no index, so indices stay dense.
        var index = 0
        for element in elements where nilEncoding != .dropKey || !element.isNull {
            switch arrayEncoding {
            case .brackets: output.key.append(contentsOf: "[]".utf8)
            case .noBrackets: break
            case .indexInBrackets:
                output.key.append(UInt8(ascii: "["))
                appendDecimal(index, to: &output.key)
                output.key.append(UInt8(ascii: "]"))
            }
            try append(element, to: &output)
            output.key.removeSubrange(parentEnd...)
            index += 1
        }
    }

    /// Appends the pairs of `slot` stored under `output.key`.
    /// - Throws: ``ParameterEncodingError`` for a number that is not finite.
    private func append(_ slot: JSONEncodingSlot, to output: inout Output) throws {
        switch slot {
        case .object(let storage): try appendMembers(storage.members, nested: true, to: &output)
        case .array(let storage): try appendElements(storage.elements, to: &output)
        case .node(let node): try append(node.slot, to: &output)
        case .value(let value): try append(value, to: &output)
        }
    }

    /// Appends the pairs of `value` stored under `output.key`.
    /// - Throws: ``ParameterEncodingError`` for a number that is not finite.
    private func append(_ value: JSON, to output: inout Output) throws {
        switch value {
        case .null:
            if let text = nilEncoding.text {
                appendPair(value: text, to: &output)
            }
        case .bool(let bool):
            appendPair(value: boolEncoding.text(for: bool), to: &output)
        case .integer(let integer) where escaper.keepsIntegers:
            // Written as they are, with no string made.
            appendKey(to: &output)
            appendDecimal(integer, to: &output.text)
        case .integer(let integer):
            appendPair(value: String(integer), to: &output)
        case .double(let double):
            guard double.isFinite else {
                throw ParameterEncodingError(
                    reason:
                        "\"\(String(decoding: output.key, as: UTF8.self))\" is \(double), which has no form representation"
                )
            }
            appendPair(value: "\(double)", to: &output)
        case .string(let string):
            appendPair(value: string, to: &output)
        case .array(let elements):
            try appendElements(elements.map(JSONEncodingSlot.value), to: &output)
        case .object(let members):
            try appendMembers(JSONEncodingSlot.members(of: members), nested: true, to: &output)
        }
    }

    /// Appends `&` (unless this is the first pair), the escaped key and `=`.
    private func appendKey(to output: inout Output) {
        if !output.text.isEmpty { output.text.append(UInt8(ascii: "&")) }
        output.key.withUnsafeBufferPointer { escaper.append($0, to: &output.text) }
        output.text.append(UInt8(ascii: "="))
    }

    /// Appends the pair of `output.key` and `value`, both escaped.
    private func appendPair(value: String, to output: inout Output) {
        appendKey(to: &output)
        escaper.append(value, to: &output.text)
    }

    /// Appends the decimal digits of `value` (with a leading `-` when negative).
    private func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let start = bytes.endIndex
        var rest = value.magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }
}

extension JSONEncodingSlot {
    /// Whether the slot holds `null`.
    fileprivate var isNull: Bool {
        switch self {
        case .value(.null): true
        case .node(let node): node.slot.isNull
        case .value, .object, .array: false
        }
    }
}
