import Foundation

extension JSONEncoder {
    /// The encoder Strata uses unless you inject your own: Foundation's defaults plus
    /// sorted keys, so the same parameters always give the same bytes.
    public static func strataDefault() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

extension JSONDecoder {
    /// The decoder Strata uses unless you inject your own: Foundation's defaults.
    public static func strataDefault() -> JSONDecoder {
        JSONDecoder()
    }
}
