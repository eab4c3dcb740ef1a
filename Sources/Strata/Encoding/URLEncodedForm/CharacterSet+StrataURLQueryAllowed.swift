import Foundation

extension CharacterSet {
    /// The characters left unescaped in URL-encoded form keys and values (RFC 3986).
    ///
    /// It is `CharacterSet.urlQueryAllowed` without the general delimiters `:#[]@` and
    /// the sub-delimiters `!$&'()*+,;=`. As RFC 3986 section 3.4 allows, `?` and `/`
    /// stay unescaped so that a query value can hold a URL. This matches Alamofire's
    /// `afURLQueryAllowed`.
    public static let strataURLQueryAllowed: CharacterSet = {
        let generalDelimiters = ":#[]@"
        let subDelimiters = "!$&'()*+,;="
        return CharacterSet.urlQueryAllowed
            .subtracting(CharacterSet(charactersIn: generalDelimiters + subDelimiters))
    }()
}
