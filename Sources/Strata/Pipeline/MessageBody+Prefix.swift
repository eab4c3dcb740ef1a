import Foundation

extension MessageBody {
    /// Up to `maxBytes` bytes from the start of the body; a read error ends it early.
    /// Used for error snippets, where a partial body is better than none.
    public func prefix(_ maxBytes: Int) async -> Data {
        if let bufferedData { return bufferedData.prefix(maxBytes) }
        var result = Data()
        do {
            for try await chunk in self {
                result.append(chunk.prefix(maxBytes - result.count))
                if result.count >= maxBytes { break }
            }
        } catch {
            return result
        }
        return result
    }
}
