/// A key under which a feature keeps one kind of value on a call: what an endpoint asks
/// of the feature, what it passes along the call, or what it reports back.
///
/// The feature that declares a key owns it; Strata's core stores values by key and
/// names no feature (the shape of swift-service-context's `ServiceContextKey`). Declare
/// the key as a type of your own, usually internal, and give your users typed accessors:
///
/// ```swift
/// enum TagKey: CallValueKey { typealias Value = String }
///
/// extension Endpoint {
///     func tag(_ tag: String) -> Endpoint { option(TagKey.self, tag) }
/// }
/// extension MiddlewareContext {
///     var tag: String? { options[TagKey.self] }
/// }
/// ```
public protocol CallValueKey: Sendable {
    /// The type of the value kept under the key.
    associatedtype Value: Sendable

    /// A phrase for a ``StrataError``'s one-line description when the error carries this
    /// key's value among its ``StrataError/records``, or `nil` to add nothing (the
    /// default).
    static func describe(_ value: Value) -> String?
}

extension CallValueKey {
    /// Adds nothing to an error's description.
    public static func describe(_ value: Value) -> String? { nil }
}

/// Values kept on a call under typed keys (``CallValueKey``): an endpoint's options, the
/// values a call carries through its middleware, the records it reports back.
///
/// A value type: copies are independent. Empty, it holds no storage; a lookup is a linear
/// search of the few keys a call has.
public struct CallValues: Sendable {
    private struct Entry: Sendable {
        let key: any CallValueKey.Type
        var value: any Sendable
    }

    private var entries: [Entry] = []

    /// No values.
    public init() {}

    /// The value under `key`, or `nil` when there is none; setting `nil` removes it.
    public subscript<Key: CallValueKey>(_ key: Key.Type) -> Key.Value? {
        get {
            let id = ObjectIdentifier(key)
            for entry in entries where ObjectIdentifier(entry.key) == id {
                return entry.value as? Key.Value
            }
            return nil
        }
        set {
            let id = ObjectIdentifier(key)
            let index = entries.firstIndex { ObjectIdentifier($0.key) == id }
            switch (index, newValue) {
            case (let index?, let value?): entries[index].value = value
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append(Entry(key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// Whether there are no values.
    public var isEmpty: Bool { entries.isEmpty }

    /// These values with `other`'s added, `other` winning where both have a key.
    func merging(_ other: CallValues) -> CallValues {
        guard !entries.isEmpty else { return other }
        var merged = self
        for entry in other.entries {
            if let index = merged.entries.firstIndex(where: { ObjectIdentifier($0.key) == ObjectIdentifier(entry.key) })
            {
                merged.entries[index].value = entry.value
            } else {
                merged.entries.append(entry)
            }
        }
        return merged
    }

    /// The phrases the values' keys give for an error's description, in the order the
    /// values were first set.
    var descriptions: [String] {
        entries.compactMap { entry in
            func describe<Key: CallValueKey>(_ key: Key.Type) -> String? {
                (entry.value as? Key.Value).flatMap(Key.describe)
            }
            return describe(entry.key)
        }
    }
}
