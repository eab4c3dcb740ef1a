/// Turns `DecodingError` and `EncodingError` into a readable coding path and reason.
enum CodingErrorDescription {
    static func describe(_ error: any Error) -> (path: String, reason: String) {
        switch error {
        case let error as DecodingError:
            switch error {
            case .typeMismatch(let type, let context):
                return (path(context.codingPath), "expected \(type): \(context.debugDescription)")
            case .valueNotFound(let type, let context):
                return (path(context.codingPath), "expected \(type), found null: \(context.debugDescription)")
            case .keyNotFound(let key, let context):
                return (path(context.codingPath + [key]), "missing key \"\(key.stringValue)\"")
            case .dataCorrupted(let context):
                return (path(context.codingPath), context.debugDescription)
            @unknown default:
                return ("", String(describing: error))
            }
        case let error as EncodingError:
            switch error {
            case .invalidValue(let value, let context):
                return (path(context.codingPath), "invalid value \(value): \(context.debugDescription)")
            @unknown default:
                return ("", String(describing: error))
            }
        default:
            return ("", String(describing: error))
        }
    }

    /// Renders a coding path as `photos[1].id`.
    static func path(_ keys: [any CodingKey]) -> String {
        var result = ""
        for key in keys {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                if !result.isEmpty { result += "." }
                result += key.stringValue
            }
        }
        return result
    }
}
