import HTTPTypes

/// Header fields named by strings, as Alamofire's `HTTPHeaders` and Moya's
/// `[String: String]` headers are written:
///
/// ```swift
/// let request = RequestDescription(route: route, headers: ["X-Token": "abc", "Accept": "application/json"])
/// let middleware = HeadersMiddleware(["User-Agent": "MyApp/1.0"])
/// let traced = endpoint.headers(["X-Trace": traceID])
/// ```
///
/// A field name must be an RFC 9110 token (§5.1), so `HTTPField.Name(_:)` is failable.
/// A `HeaderList` checks its names only when it becomes `HTTPFields`: an invalid name
/// never traps, it surfaces as ``HeaderFieldError`` when the request is encoded or sent.
/// Values need no check: `HTTPField` replaces the bytes that would split a header line.
/// Order is kept, and a name given twice sends two fields (a `[String: String]` literal
/// with a repeated key would trap; this literal does not).
public struct HeaderList: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// One field as written: a name that may or may not be a valid token, and its value.
    public struct Field: Sendable, Hashable {
        /// The field name, not yet checked.
        public var name: String
        /// The field value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in the order given.
    public var fields: [Field]

    /// Creates a list from `["Name": "value", …]`, keeping order and repeated names.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// Creates a list from a dictionary built at run time, its fields sorted by name
    /// so the request is the same on every run.
    public init(_ dictionary: [String: String]) {
        fields = dictionary.sorted { $0.key < $1.key }.map { Field(name: $0.key, value: $0.value) }
    }

    /// Creates a list from fields in order.
    public init(_ fields: [Field]) {
        self.fields = fields
    }

    /// The fields as `HTTPFields`.
    /// - Throws: ``HeaderFieldError`` naming the first name that is not a valid token.
    public func httpFields() throws(HeaderFieldError) -> HTTPFields {
        let (fields, error) = resolved()
        if let error { throw error }
        return fields
    }

    /// The fields whose names are valid, and the error for the first one that is not.
    func resolved() -> (fields: HTTPFields, error: HeaderFieldError?) {
        var result = HTTPFields()
        var firstError: HeaderFieldError?
        for field in fields {
            if let name = HTTPField.Name(field.name) {
                result.append(HTTPField(name: name, value: field.value))
            } else if firstError == nil {
                firstError = HeaderFieldError(name: field.name)
            }
        }
        return (result, firstError)
    }
}

/// A header field name given as a string is not an RFC 9110 token (§5.1: one or more
/// of the letters, digits and `!#$%&'*+-.^_|~` and the backtick), so the field cannot
/// be sent.
///
/// A request carrying one fails when it is encoded, as ``StrataError/Kind/encoding``
/// (or ``StrataError/Kind/middleware`` when `HeadersMiddleware` (a feature) was given it) with
/// this error as ``StrataError/underlying``.
public struct HeaderFieldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name as it was given.
    public let name: String

    /// Creates the error for `name`.
    public init(name: String) {
        self.name = name
    }

    /// A one-line description for logs.
    public var description: String {
        "invalid header field name \(name.debugDescription): a name is one or more letters, digits or !#$%&'*+-.^_`|~"
    }
}
