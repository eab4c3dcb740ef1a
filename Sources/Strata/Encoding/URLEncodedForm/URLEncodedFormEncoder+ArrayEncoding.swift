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

        /// The key of the element at `index` of the array stored under `key`.
        func key(_ key: String, index: Int) -> String {
            switch self {
            case .brackets: "\(key)[]"
            case .noBrackets: key
            case .indexInBrackets: "\(key)[\(index)]"
            }
        }
    }
}
