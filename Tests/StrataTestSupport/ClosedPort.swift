#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback port that refuses connections for as long as this value lives: a socket
/// bound to it that never listens. Unlike the port of a server that has stopped, no
/// server started meanwhile by a test running beside can take it over.
public final class ClosedPort: Sendable {
    /// The port number on 127.0.0.1.
    public let port: Int
    private let descriptor: Int32

    /// Binds a fresh loopback port without listening on it.
    public init() throws(ClosedPortError) {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ClosedPortError(step: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw ClosedPortError(step: "bind")
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// `127.0.0.1:port`.
    public var authority: String { "127.0.0.1:\(port)" }

    deinit { close(descriptor) }
}

/// The system refused a socket for ``ClosedPort``.
public struct ClosedPortError: Error {
    /// The call that failed: `socket` or `bind`.
    public let step: String
}
