extension String {
    /// `bytes` as a string when they are valid UTF-8, `nil` otherwise.
    ///
    /// `String(validating:as:)` says the same, but only from macOS 15, iOS 18, tvOS 18 and
    /// watchOS 11, above Strata's floor. Decoding replaces every invalid sequence with
    /// U+FFFD, so the decoded string's UTF-8 equals `bytes` exactly when they were valid;
    /// one code path on every platform (Linux would otherwise never run the fallback).
    /// (Not `validatingUTF8:`: the standard library's initializer of that name reads a C string.)
    package init?(validUTF8 bytes: some Collection<UInt8>) {
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard decoded.utf8.elementsEqual(bytes) else { return nil }
        self = decoded
    }
}
