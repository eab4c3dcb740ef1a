import Foundation
import Strata

/// A replayable body delivered in exactly these chunks.
func chunkedBody(_ chunks: [Data]) -> MessageBody {
    MessageBody(length: nil) {
        AsyncStream<Data> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
    }
}

/// A replayable body of `text`'s UTF-8 bytes in one chunk.
func chunkedBody(_ text: String) -> MessageBody {
    chunkedBody([Data(text.utf8)])
}

/// `bytes` cut at the given offsets (sorted, within the bytes).
func split(_ bytes: Data, at cuts: [Int]) -> [Data] {
    var chunks: [Data] = []
    var start = 0
    for cut in cuts.sorted() where cut > start && cut < bytes.count {
        chunks.append(bytes.subdata(in: start..<cut))
        start = cut
    }
    chunks.append(bytes.subdata(in: start..<bytes.count))
    return chunks
}
