/// One value in a ``JSON`` tree under construction.
///
/// Containers are reference-backed so that a nested container handed out earlier
/// still writes into the tree its parent will return.
enum JSONEncodingSlot {
    /// A finished value.
    case value(JSON)
    /// An object that a keyed container may still add to.
    case object(JSONObjectStorage)
    /// An array that an unkeyed container may still append to.
    case array(JSONArrayStorage)
    /// A value that an encoder (`superEncoder`) may still write.
    case node(JSONEncodingNode)

    /// The finished ``JSON`` value.
    var resolved: JSON {
        switch self {
        case .value(let value): value
        case .object(let storage): .object(storage.entries.mapValues(\.resolved))
        case .array(let storage): .array(storage.elements.map(\.resolved))
        case .node(let node): node.resolved
        }
    }
}

/// The entries of an object being encoded.
final class JSONObjectStorage {
    var entries: [String: JSONEncodingSlot]

    init(entries: [String: JSONEncodingSlot] = [:]) {
        self.entries = entries
    }
}

/// The elements of an array being encoded.
final class JSONArrayStorage {
    var elements: [JSONEncodingSlot]

    init(elements: [JSONEncodingSlot] = []) {
        self.elements = elements
    }
}

/// What one encoder wrote: nothing yet, or one slot.
final class JSONEncodingNode {
    var content: JSONEncodingSlot?

    /// The finished value; an encoder that wrote nothing yields an empty object, as with `JSONEncoder`.
    var resolved: JSON {
        content?.resolved ?? .object([:])
    }

    /// The slot a parent container stores for this node once the value has been encoded.
    var slot: JSONEncodingSlot {
        content ?? .value(.object([:]))
    }
}
