import CompressNIO
import Foundation
import NIOCore

/// gzip inflated whole with CompressNIO (not the code under test), into a buffer of the
/// length the test expects: more bytes than that fail with `CompressNIOError.bufferOverflow`.
func inflate(_ data: Data, expecting count: Int) throws -> Data {
    var input = ByteBuffer(bytes: data)
    var output = ByteBufferAllocator().buffer(capacity: max(count, 1))
    try input.decompress(to: &output, with: .gzip())
    return Data(output.readableBytesView)
}
