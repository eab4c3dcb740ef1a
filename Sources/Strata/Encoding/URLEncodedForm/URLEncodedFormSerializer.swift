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

    /// Serializes `root`, which must be an object.
    /// - Throws: ``ParameterEncodingError`` when `root` is not an object.
    func serialize(_ root: JSON) throws -> String {
        guard case .object(let members) = root else {
            throw ParameterEncodingError(
                reason: "URL-encoded form parameters must be a keyed object, found \(root.kindName)"
            )
        }
        var pairs: [Pair] = []
        try appendMembers(of: members, under: nil, to: &pairs)
        return
            pairs
            .map { escaper.escape($0.key) + "=" + escaper.escape($0.value) }
            .joined(separator: "&")
    }

    /// Appends the pairs of every member of an object stored under `parent`
    /// (`nil` for the root object).
    /// Keys are converted by ``keyEncoding`` before they are sorted.
    private func appendMembers(of members: [String: JSON], under parent: String?, to pairs: inout [Pair]) throws {
        let converted = members.map { (key: keyEncoding.encode($0.key), value: $0.value) }
        let ordered =
            alphabetizeKeyValuePairs
            ? converted.sorted { $0.key < $1.key }
            : converted
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
