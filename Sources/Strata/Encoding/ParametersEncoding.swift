/// Where a request's parameters go and in which form.
///
/// `.json` is the default. The form encodings take an optional
/// ``URLEncodedFormEncoder`` for the array, bool, nested-key, date, nil and
/// space conventions a server expects:
///
/// ```swift
/// .urlQuery                                                   // key[]=a&key[]=b
/// .urlQuery(URLEncodedFormEncoder(arrayEncoding: .noBrackets)) // key=a&key=b
/// ```
public enum ParametersEncoding: Sendable {
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

    /// The seed documents' spelling of ``formURL``.
    public static var formUrl: ParametersEncoding { .formURL }
}
