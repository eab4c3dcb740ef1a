import Foundation
import Hummingbird

/// `POST` or `PUT /upload`: reads the request body as it streams in and answers with an
/// ``UploadReceipt`` — how many bytes arrived, their FNV-1a digest, the request's
/// `Content-Length` and `Transfer-Encoding` — so a test can check an upload byte for byte
/// without the server holding it.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public enum UploadRoutes {
    /// Adds the route to `router`.
    public static func register(on router: Router<BasicRequestContext>) {
        for method in [HTTPRequest.Method.post, .put] {
            router.on("upload", method: method) { request, _ in
                var digest = FNV1a()
                var count = 0
                for try await buffer in request.body {
                    buffer.withUnsafeReadableBytes { digest.add($0) }
                    count += buffer.readableBytes
                }
                return try EchoRoutes.json(
                    UploadReceipt(
                        bytes: count, digest: digest.hex, contentLength: request.headers[.contentLength],
                        transferEncoding: request.headers[.transferEncoding]))
            }
        }
    }
}

/// What `/upload` received.
public struct UploadReceipt: Codable, Sendable, Equatable {
    /// The body's byte count.
    public var bytes: Int
    /// The body's 64-bit FNV-1a digest, 16 lowercase hex digits.
    public var digest: String
    /// The request's `Content-Length`, if it sent one.
    public var contentLength: String?
    /// The request's `Transfer-Encoding`, if it sent one.
    public var transferEncoding: String?

    /// A receipt made of its parts.
    public init(bytes: Int, digest: String, contentLength: String?, transferEncoding: String?) {
        self.bytes = bytes
        self.digest = digest
        self.contentLength = contentLength
        self.transferEncoding = transferEncoding
    }
}

/// The 64-bit FNV-1a hash: a byte-for-byte check of an upload, not a cryptographic one.
public struct FNV1a: Sendable {
    private var state: UInt64 = 0xCBF2_9CE4_8422_2325

    /// A hash of nothing yet.
    public init() {}

    /// Adds `bytes`.
    public mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
    }

    /// Adds `bytes`, without the generic sequence's cost per byte in a debug build (the
    /// tests hash hundreds of megabytes).
    public mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var state = state
        for index in 0..<bytes.count {
            state = (state ^ UInt64(bytes[index])) &* 0x0000_0100_0000_01B3
        }
        self.state = state
    }

    /// The hash so far, 16 lowercase hex digits.
    public var hex: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
