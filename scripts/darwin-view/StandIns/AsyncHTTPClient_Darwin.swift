// What AsyncHTTPClient declares on Apple platforms only (`#if canImport(Network)`), with its
// signatures, for scripts/check-darwin.sh. Never linked, never run: every body traps.
import AsyncHTTPClient
import Foundation
import Security

extension HTTPClient {
    /// A POSIX error from Network.framework.
    public struct NWPOSIXError: Error, CustomStringConvertible {
        public let errorCode: POSIXErrorCode
        public init(_ errorCode: POSIXErrorCode, reason: String) { fatalError() }
        public var description: String { fatalError() }
    }

    /// A TLS error from Network.framework.
    public struct NWTLSError: Error, CustomStringConvertible {
        public let status: OSStatus
        public init(_ status: OSStatus, reason: String) { fatalError() }
        public var description: String { fatalError() }
    }
}
