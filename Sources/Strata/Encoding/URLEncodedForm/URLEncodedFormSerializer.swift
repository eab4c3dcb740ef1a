/// Writes a ``JSON`` object as `application/x-www-form-urlencoded` text.
///
/// Nested values are flattened into `key=value` pairs whose keys spell out the path,
/// `user[tags][]=a`; the keys and values are then percent-escaped and joined with `&`.
/// Empty arrays and empty objects write nothing.
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

    /// One unescaped `key=value` pair.
    private typealias Pair = (key: String, value: String)

    /// Serializes `root`, which must be an object, as the text's UTF-8 bytes (all ASCII):
    /// each pair escaped straight into one buffer.
    /// - Throws: ``ParameterEncodingError`` when `root` is not an object.
    func serialize(_ root: JSON) throws -> [UInt8] {
        guard case .object(let members) = root else {
            throw ParameterEncodingError(
                reason: "URL-encoded form parameters must be a keyed object, found \(root.kindName)"
            )
        }
        var pairs: [Pair] = []
        pairs.reserveCapacity(members.count)
        try appendMembers(of: members, under: nil, to: &pairs)
        var output: [UInt8] = []
        output.reserveCapacity(pairs.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 2 })
        for (index, pair) in pairs.enumerated() {
            if index > 0 { output.append(UInt8(ascii: "&")) }
            escaper.append(pair.key, to: &output)
            output.append(UInt8(ascii: "="))
            escaper.append(pair.value, to: &output)
        }
        return output
    }

    /// Appends the pairs of every member of an object stored under `parent`
    /// (`nil` for the root object).
    /// Keys are converted by ``keyEncoding`` before they are sorted.
    private func appendMembers(of members: [String: JSON], under parent: String?, to pairs: inout [Pair]) throws {
        var ordered =
            if case .useDefaultKeys = keyEncoding {
                members.map { $0 }
            } else {
                members.map { (key: keyEncoding.encode($0.key), value: $0.value) }
            }
        if alphabetizeKeyValuePairs { ordered.sort { $0.key < $1.key } }
        for (name, value) in ordered {
            let key = parent.map { objectEncoding.key(name, in: $0) } ?? name
            try append(value, forKey: key, to: &pairs)
        }
    }

    /// Appends the pairs of `value` stored under `key`.
    /// - Throws: ``ParameterEncodingError`` for a number that is not finite.
    private func append(_ value: JSON, forKey key: String, to pairs: inout [Pair]) throws {
        switch value {
        case .null:
            if let text = nilEncoding.text {
                pairs.append((key, text))
            }
        case .bool(let bool):
            pairs.append((key, boolEncoding.text(for: bool)))
        case .integer(let integer):
            pairs.append((key, "\(integer)"))
        case .double(let double):
            guard double.isFinite else {
                throw ParameterEncodingError(reason: "\"\(key)\" is \(double), which has no form representation")
            }
            pairs.append((key, "\(double)"))
        case .string(let string):
            pairs.append((key, string))
        case .array(let elements):
            // A dropped `null` takes no index, so indices stay dense.
            let kept = nilEncoding == .dropKey ? elements.filter { $0 != .null } : elements
            for (index, element) in kept.enumerated() {
                try append(element, forKey: arrayEncoding.key(key, index: index), to: &pairs)
            }
        case .object(let members):
            try appendMembers(of: members, under: key, to: &pairs)
        }
    }
}
