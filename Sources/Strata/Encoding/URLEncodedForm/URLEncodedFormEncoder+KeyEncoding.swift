import Foundation

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
            var searchRange = key.index(after: wordStart) ..< key.endIndex
            while let upper = key.rangeOfCharacter(from: .uppercaseLetters, options: [], range: searchRange) {
                words.append(wordStart ..< upper.lowerBound)
                searchRange = upper.lowerBound ..< searchRange.upperBound
                guard let lower = key.rangeOfCharacter(from: .lowercaseLetters, options: [], range: searchRange) else {
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
                    words.append(upper.lowerBound ..< beforeLower)
                    wordStart = beforeLower
                }
                searchRange = lower.upperBound ..< searchRange.upperBound
            }
            words.append(wordStart ..< searchRange.upperBound)
            return words.map { key[$0].lowercased() }.joined(separator: "_")
        }
    }
}
