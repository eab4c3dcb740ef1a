import HTTPTypes

/// Where a request's parameters go and in which form.
///
/// ``automatic`` is the default: parameters go in the URL query for `GET`, `HEAD` and
/// `DELETE` and in a JSON body for every other method, as Alamofire users expect
/// (`.json` stays the default wherever a body exists). Naming an encoding fixes it
/// whatever the method: an explicit ``json`` on a `GET` or `HEAD` is an error. The form
/// encodings take an optional ``URLEncodedFormEncoder`` for the array, bool, nested-key,
/// key-case, date, nil and space conventions a server expects:
///
/// ```swift
/// let search = RequestDescription(route: url, parameters: ["q": "swift"])               // GET ?q=swift
/// let create = RequestDescription(route: url, method: .post, parameters: ["q": "swift"])  // {"q":"swift"}
/// let brackets: ParametersEncoding = .urlQuery                                            // key[]=a&key[]=b
/// let repeated: ParametersEncoding = .urlQuery(URLEncodedFormEncoder(arrayEncoding: .noBrackets))  // key=a&key=b
/// let snakeCase: ParametersEncoding = .formURL(URLEncodedFormEncoder(keyEncoding: .convertToSnakeCase))  // first_name=Ann
/// ```
public enum ParametersEncoding: Sendable {
    /// The URL query (default ``URLEncodedFormEncoder``) for `GET`, `HEAD` and `DELETE`;
    /// a JSON body for every other method. The default of every `encoding:` parameter.
    case automatic
    /// A JSON body (`Content-Type: application/json`), encoded by the client's `JSONEncoder`.
    case json
    /// A form body (`Content-Type: application/x-www-form-urlencoded; charset=utf-8`).
    case formURL(URLEncodedFormEncoder)
    /// The URL's query string, merged after any query the URL already has.
    case urlQuery(URLEncodedFormEncoder)

    /// A form body with the default ``URLEncodedFormEncoder`` conventions.
    public static var formURL: ParametersEncoding { .formURL(URLEncodedFormEncoder()) }

    /// The URL's query string with the default ``URLEncodedFormEncoder`` conventions.
    public static var urlQuery: ParametersEncoding { .urlQuery(URLEncodedFormEncoder()) }

    /// The earlier designs' spelling of ``formURL``.
    public static var formUrl: ParametersEncoding { .formURL }

    /// The methods whose parameters ``automatic`` puts in the URL query.
    public static let queryMethods: Set<HTTPRequest.Method> = [.get, .head, .delete]

    /// The encoding used for a request with `method`: ``automatic`` resolved to
    /// ``urlQuery`` or ``json``, any other encoding as it is.
    public func resolved(for method: HTTPRequest.Method) -> ParametersEncoding {
        guard case .automatic = self else { return self }
        return Self.queryMethods.contains(method) ? .urlQuery : .json
    }
}
