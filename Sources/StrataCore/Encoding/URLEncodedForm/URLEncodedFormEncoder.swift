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
    /// come in the object's own order: the order an `Encodable` value encodes them in,
    /// unspecified for ``JSON`` objects and dictionaries (it may differ from one run to
    /// the next).
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
    private var allowedASCII: ASCIIByteSet

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
        self.allowedASCII =
            allowedCharacters.map(URLQueryEscaper.allowedASCII(in:)) ?? URLQueryEscaper.defaultAllowedASCII
    }

    /// Encodes `value`, which must encode as a keyed object, into `a=1&b=2` form.
    ///
    /// A ``JSON`` value or a `[String: JSON]` dictionary is serialized as it is; any other
    /// value is encoded by ``JSONValueEncoder``'s rules, using ``dateEncoding`` and
    /// ``dataEncoding``, and writing `nil` optionals as `null` unless ``nilEncoding`` is
    /// `.dropKey`; its pairs are written from the tree that encoder builds, with no
    /// ``JSON`` value made in between.
    /// - Throws: ``ParameterEncodingError`` when the value is not a keyed object; the
    ///   value's own encoding errors (`EncodingError`, or an error thrown by a `.custom`
    ///   date or data closure) are rethrown as they are.
    public func encode(_ value: some Encodable) throws -> String {
        String(decoding: try encodedBytes(value), as: UTF8.self)
    }

    /// Encodes a ``JSON`` object into `a=1&b=2` form; an empty object gives `""`.
    /// - Throws: ``ParameterEncodingError`` when `json` is not an object.
    public func encode(_ json: JSON) throws -> String {
        String(decoding: try encodedBytes(json), as: UTF8.self)
    }

    /// What `encode(_:)` gives for `value`, as the text's bytes (for a request body).
    func encodedBytes(_ value: some Encodable) throws -> [UInt8] {
        try serializer.serialize(encodingTree(for: value))
    }

    /// What `encode(_:)` gives for `json`, as the text's bytes.
    private func encodedBytes(_ json: JSON) throws -> [UInt8] {
        try serializer.serialize(json)
    }

    /// The serializer with this encoder's options.
    private var serializer: URLEncodedFormSerializer {
        URLEncodedFormSerializer(
            alphabetizeKeyValuePairs: alphabetizeKeyValuePairs,
            arrayEncoding: arrayEncoding,
            boolEncoding: boolEncoding,
            nilEncoding: nilEncoding,
            objectEncoding: objectEncoding,
            keyEncoding: keyEncoding,
            escaper: URLQueryEscaper(allowedASCII: allowedASCII, spaceEncoding: spaceEncoding)
        )
    }

    /// `value` as the tree ``JSONValueEncoder`` builds, read by the serializer as it is.
    private func encodingTree(for value: some Encodable) throws -> JSONEncodingSlot {
        if let json = value as? JSON {
            return .value(json)
        }
        if let members = value as? [String: JSON] {
            return .value(.object(members))
        }
        var encoder = JSONValueEncoder()
        encoder.dateEncodingStrategy = dateEncoding.jsonValueStrategy
        encoder.dataEncodingStrategy = dataEncoding.jsonValueStrategy
        encoder.encodesNilOptionals = nilEncoding != .dropKey
        return try encoder.encodedSlot(value)
    }
}

extension URLEncodedFormEncoder {
    /// How the elements of an array are keyed.
    ///
    /// There is no standard for collections in form data; these are the conventions
    /// that Rails, PHP, Express (`qs`) and Alamofire use.
    public enum ArrayEncoding: Sendable, Hashable {
        /// Empty brackets after the key for every element: `key[]=a&key[]=b`. The default.
        case brackets
        /// The bare key repeated for every element: `key=a&key=b`.
        case noBrackets
        /// The element's index in brackets: `key[0]=a&key[1]=b`.
        case indexInBrackets
    }
}

extension URLEncodedFormEncoder {
    /// How `true` and `false` are written.
    public enum BoolEncoding: Sendable, Hashable {
        /// `1` and `0`. The default.
        case numeric
        /// `true` and `false`.
        case literal

        /// The text written for `value`.
        func text(for value: Bool) -> String {
            switch self {
            case .numeric: value ? "1" : "0"
            case .literal: value ? "true" : "false"
            }
        }
    }
}

extension URLEncodedFormEncoder {
    /// How `Data` values inside an `Encodable` value are written.
    public enum DataEncoding: Sendable {
        /// The `Data`'s own `Encodable` conformance: an array of bytes, `key[]=1&key[]=2`.
        case deferredToData
        /// A Base64 string. The default.
        case base64
        /// The string returned by the closure; an error it throws ends the encoding.
        case custom(@Sendable (Data) throws -> String)

        /// The matching ``JSONValueEncoder`` strategy.
        var jsonValueStrategy: JSONValueEncoder.DataEncodingStrategy {
            switch self {
            case .deferredToData: .deferredToData
            case .base64: .base64
            case .custom(let closure): .custom { data in .string(try closure(data)) }
            }
        }
    }
}

extension URLEncodedFormEncoder {
    /// How `Date` values inside an `Encodable` value are written.
    ///
    /// Alamofire's `.formatted(DateFormatter)` is left out because `DateFormatter` is not
    /// `Sendable`; use ``custom(_:)`` with a `Sendable` format style instead.
    public enum DateEncoding: Sendable {
        /// The `Date`'s own `Encodable` conformance: seconds since 2001-01-01 as a
        /// double, `123.5`. The default.
        case deferredToDate
        /// Seconds since 1970-01-01 as a double, `1700000000.5`.
        case secondsSince1970
        /// Milliseconds since 1970-01-01 as a double, `1700000000500.0`.
        case millisecondsSince1970
        /// An ISO 8601 (RFC 3339) string in UTC, `2024-05-06T12:53:20Z`.
        case iso8601
        /// The string returned by the closure; an error it throws ends the encoding.
        case custom(@Sendable (Date) throws -> String)

        /// The matching ``JSONValueEncoder`` strategy.
        var jsonValueStrategy: JSONValueEncoder.DateEncodingStrategy {
            switch self {
            case .deferredToDate: .deferredToDate
            // Pinned to Alamofire's text, `String(Double)`, whatever number case the
            // tree would otherwise hold.
            case .secondsSince1970: .custom { date in .string("\(date.timeIntervalSince1970)") }
            case .millisecondsSince1970: .custom { date in .string("\(date.timeIntervalSince1970 * 1000)") }
            case .iso8601: .iso8601
            case .custom(let closure): .custom { date in .string(try closure(date)) }
            }
        }
    }
}

extension URLEncodedFormEncoder {
    /// How the key of every object member is written, the options of
    /// `JSONEncoder.KeyEncodingStrategy`.
    ///
    /// Keys are converted one by one before they are nested (`userName` inside `homeAddress`
    /// gives `home_address[user_name]` with ``convertToSnakeCase``) and before they are sorted.
    public enum KeyEncoding: Sendable {
        /// Keys as the value gives them. The default.
        case useDefaultKeys
        /// Camel case to snake case, exactly as `JSONEncoder`'s `.convertToSnakeCase`:
        /// `myURLProperty` → `my_url_property`, `oneTwoThree` → `one_two_three`; leading and
        /// trailing underscores are kept (`_id_` stays `_id_`).
        case convertToSnakeCase
        /// Keys converted by a closure.
        case custom(@Sendable (String) -> String)

        /// `key` as written in the form.
        public func encode(_ key: String) -> String {
            switch self {
            case .useDefaultKeys: key
            case .convertToSnakeCase: Self.snakeCased(key)
            case .custom(let convert): convert(key)
            }
        }

        /// `key` in snake case, by `JSONEncoder`'s algorithm: words split where a lowercase
        /// letter (or any non-uppercase character) is followed by an uppercase one, and where
        /// a run of capitals ends before a capital followed by a lowercase letter
        /// (`URLProperty`: `URL`, `Property`); the first character never starts a word;
        /// the words are lowercased and joined with `_`.
        static func snakeCased(_ key: String) -> String {
            guard !key.isEmpty else { return key }
            var words: [Range<String.Index>] = []
            var wordStart = key.startIndex
            var searchRange = key.index(after: wordStart)..<key.endIndex
            while let upper = firstScalar(in: key, within: searchRange, where: isUppercase) {
                words.append(wordStart..<upper.lowerBound)
                searchRange = upper.lowerBound..<searchRange.upperBound
                guard let lower = firstScalar(in: key, within: searchRange, where: isLowercase) else {
                    // Capitals up to the end: one last word.
                    wordStart = searchRange.lowerBound
                    break
                }
                let afterCapital = key.index(after: upper.lowerBound)
                if lower.lowerBound == afterCapital {
                    // A capital followed by a lowercase letter: a word starts at the capital.
                    wordStart = upper.lowerBound
                } else {
                    // A run of capitals: a word of its own, up to the capital before the lowercase.
                    let beforeLower = key.index(before: lower.lowerBound)
                    words.append(upper.lowerBound..<beforeLower)
                    wordStart = beforeLower
                }
                searchRange = lower.upperBound..<searchRange.upperBound
            }
            words.append(wordStart..<searchRange.upperBound)
            return words.map { key[$0].lowercased() }.joined(separator: "_")
        }

        /// Uppercase as `JSONEncoder` sees it: the scalar's general category is `Lu` or
        /// `Lt`, by the Unicode version of the standard library (Foundation's
        /// `CharacterSet.uppercaseLetters` lags behind it on Linux: `U+A7CC` is missing).
        private static func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
            let category = scalar.properties.generalCategory
            return category == .uppercaseLetter || category == .titlecaseLetter
        }

        /// Lowercase as `JSONEncoder` sees it: general category `Ll`.
        private static func isLowercase(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.generalCategory == .lowercaseLetter
        }

        /// The first scalar of `key` within `range` that `matches`.
        private static func firstScalar(
            in key: String, within range: Range<String.Index>, where matches: (Unicode.Scalar) -> Bool
        ) -> Range<String.Index>? {
            let scalars = key.unicodeScalars
            var index = range.lowerBound
            while index < range.upperBound {
                let next = scalars.index(after: index)
                if matches(scalars[index]) { return index..<next }
                index = next
            }
            return nil
        }
    }
}

extension URLEncodedFormEncoder {
    /// How `nil` optionals and JSON `null` values are written.
    public enum NilEncoding: Sendable, Hashable {
        /// The pair is left out entirely (and a `null` array element takes no index). The default.
        case dropKey
        /// The key is written with an empty value: `key=`.
        case dropValue
        /// The key is written with the text `null`: `key=null`.
        case null

        /// The text written for a `null` value, or `nil` when the pair is left out.
        var text: String? {
            switch self {
            case .dropKey: nil
            case .dropValue: ""
            case .null: "null"
            }
        }
    }
}

extension URLEncodedFormEncoder {
    /// How the keys of nested objects are joined to the key of their parent.
    public enum ObjectEncoding: Sendable, Hashable {
        /// The nested key in brackets: `user[name]=Ann`. The default.
        case brackets
        /// The nested key after a dot: `user.name=Ann`.
        case dots
    }
}

extension URLEncodedFormEncoder {
    /// How spaces in keys and values are written.
    public enum SpaceEncoding: Sendable, Hashable {
        /// Percent-escaped as `%20`, as RFC 3986 does. The default.
        case percentEscaped
        /// Replaced by `+`, as HTML forms do. A literal `+` is still escaped as `%2B`.
        case plusReplaced

        /// The bytes written for a space.
        var replacement: [UInt8] {
            switch self {
            case .percentEscaped: Array("%20".utf8)
            case .plusReplaced: Array("+".utf8)
            }
        }
    }
}
