import Foundation

/// Encodes parameters as `application/x-www-form-urlencoded` text, for URL query
/// strings and form bodies.
///
/// It follows the conventions of Alamofire's `URLEncodedFormEncoder`, which servers
/// (Rails, PHP, Express) understand: nested objects become `user[name]=Ann`, arrays
/// become `tags[]=a&tags[]=b`, booleans become `1`/`0`, and keys and values are
/// percent-escaped as RFC 3986 says. Keys are written as given unless ``keyEncoding``
/// converts them (`.convertToSnakeCase`, as `JSONEncoder` does); a client's JSON key
/// strategy never applies here.
///
/// ```swift
/// let encoder = URLEncodedFormEncoder()
/// let query = try encoder.encode(["q": "a b", "page": 2, "filter": ["tag": ["x", "y"]]] as JSON)
/// // "filter%5Btag%5D%5B%5D=x&filter%5Btag%5D%5B%5D=y&page=2&q=a%20b"
/// ```
public struct URLEncodedFormEncoder: Sendable {
    /// Whether the members of every object are written in key order; `true` by default.
    ///
    /// Keys are compared level by level (the members of each object are sorted by their
    /// own key, then written in that order with their nested pairs), so the output is the
    /// same on every run. Array elements always keep their order. When `false`, members
    /// come in the object's own order, which for ``JSON`` objects and dictionaries is
    /// unspecified and may differ from one run to the next.
    public var alphabetizeKeyValuePairs: Bool
    /// How array elements are keyed; `.brackets` (`key[]=a`) by default.
    public var arrayEncoding: ArrayEncoding
    /// How booleans are written; `.numeric` (`1`/`0`) by default.
    public var boolEncoding: BoolEncoding
    /// How `Data` values of an `Encodable` value are written; `.base64` by default.
    public var dataEncoding: DataEncoding
    /// How `Date` values of an `Encodable` value are written; `.deferredToDate` by default.
    public var dateEncoding: DateEncoding
    /// How `nil` optionals and `null` values are written; `.dropKey` by default.
    public var nilEncoding: NilEncoding
    /// How nested object keys are written; `.brackets` (`a[b]=c`) by default.
    public var objectEncoding: ObjectEncoding
    /// How every key is written; `.useDefaultKeys` (as given) by default.
    ///
    /// A client's `JSONEncoder.keyEncodingStrategy` is never applied to forms: a form that
    /// wants `first_name` says so here (`.convertToSnakeCase`).
    public var keyEncoding: KeyEncoding
    /// How spaces are written; `.percentEscaped` (`%20`) by default.
    public var spaceEncoding: SpaceEncoding
    /// The characters left unescaped in keys and values; `CharacterSet.strataURLQueryAllowed`
    /// by default. Only its ASCII characters count: other characters are always escaped.
    public var allowedCharacters: CharacterSet {
        get { customAllowedCharacters ?? .strataURLQueryAllowed }
        set {
            customAllowedCharacters = newValue
            allowedASCII = URLQueryEscaper.allowedASCII(in: newValue)
        }
    }

    /// The set given, `nil` for the default.
    private var customAllowedCharacters: CharacterSet?
    /// Which ASCII bytes ``allowedCharacters`` leaves unescaped, worked out when the set
    /// is given (the default set's once for all encoders): 128 `CharacterSet` lookups
    /// cost more than escaping a whole form.
    private var allowedASCII: [Bool]

    /// Creates an encoder; every option defaults to Alamofire's default (`allowedCharacters`:
    /// `nil` for `CharacterSet.strataURLQueryAllowed`).
    public init(
        alphabetizeKeyValuePairs: Bool = true,
        arrayEncoding: ArrayEncoding = .brackets,
        boolEncoding: BoolEncoding = .numeric,
        dataEncoding: DataEncoding = .base64,
        dateEncoding: DateEncoding = .deferredToDate,
        nilEncoding: NilEncoding = .dropKey,
        objectEncoding: ObjectEncoding = .brackets,
        keyEncoding: KeyEncoding = .useDefaultKeys,
        spaceEncoding: SpaceEncoding = .percentEscaped,
        allowedCharacters: CharacterSet? = nil
    ) {
        self.alphabetizeKeyValuePairs = alphabetizeKeyValuePairs
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.dataEncoding = dataEncoding
        self.dateEncoding = dateEncoding
        self.nilEncoding = nilEncoding
        self.objectEncoding = objectEncoding
        self.keyEncoding = keyEncoding
        self.spaceEncoding = spaceEncoding
        self.customAllowedCharacters = allowedCharacters
        self.allowedASCII = allowedCharacters.map(URLQueryEscaper.allowedASCII(in:)) ?? URLQueryEscaper.defaultAllowedASCII
    }

    /// Encodes `value`, which must encode as a keyed object, into `a=1&b=2` form.
    ///
    /// A ``JSON`` value or a `[String: JSON]` dictionary is serialized as it is; any other
    /// value is first turned into a ``JSON`` tree by ``JSONValueEncoder``, using
    /// ``dateEncoding`` and ``dataEncoding``, and writing `nil` optionals as `null`
    /// unless ``nilEncoding`` is `.dropKey`.
    /// - Throws: ``ParameterEncodingError`` when the value is not a keyed object; the
    ///   value's own encoding errors (`EncodingError`, or an error thrown by a `.custom`
    ///   date or data closure) are rethrown as they are.
    public func encode(_ value: some Encodable) throws -> String {
        try encode(jsonTree(for: value))
    }

    /// Encodes a ``JSON`` object into `a=1&b=2` form; an empty object gives `""`.
    /// - Throws: ``ParameterEncodingError`` when `json` is not an object.
    public func encode(_ json: JSON) throws -> String {
        let serializer = URLEncodedFormSerializer(
            alphabetizeKeyValuePairs: alphabetizeKeyValuePairs,
            arrayEncoding: arrayEncoding,
            boolEncoding: boolEncoding,
            nilEncoding: nilEncoding,
            objectEncoding: objectEncoding,
            keyEncoding: keyEncoding,
            escaper: URLQueryEscaper(allowedASCII: allowedASCII, spaceEncoding: spaceEncoding)
        )
        return try serializer.serialize(json)
    }

    /// `value` as a ``JSON`` tree.
    private func jsonTree(for value: some Encodable) throws -> JSON {
        if let json = value as? JSON {
            return json
        }
        if let members = value as? [String: JSON] {
            return .object(members)
        }
        var encoder = JSONValueEncoder()
        encoder.dateEncodingStrategy = dateEncoding.jsonValueStrategy
        encoder.dataEncodingStrategy = dataEncoding.jsonValueStrategy
        encoder.encodesNilOptionals = nilEncoding != .dropKey
        return try encoder.encode(value)
    }
}
