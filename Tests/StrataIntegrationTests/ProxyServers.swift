import Foundation
import StrataTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real proxy on 127.0.0.1, started by a test from Debian's packages (`tinyproxy` for
/// HTTP with `BasicAuth`, `microsocks` for SOCKS5), with the log that proves what went
/// through it. `.ci/run` installs both and sets `STRATA_REQUIRE_PROXIES`, so that there a
/// missing program fails instead of skipping.
struct ProxyServer: Sendable {
    enum Program: String, Sendable {
        case tinyproxy = "/usr/bin/tinyproxy"
        case microsocks = "/usr/bin/microsocks"
    }

    /// Whether the proxy tests run: the programs are installed, or CI requires them.
    static var available: Bool {
        ProcessInfo.processInfo.environment["STRATA_REQUIRE_PROXIES"] != nil
            || [Program.tinyproxy, .microsocks].allSatisfy { FileManager.default.isExecutableFile(atPath: $0.rawValue) }
    }

    let port: Int
    private let log: URL

    /// What the proxy logged so far: tinyproxy's `Request` lines (`CONNECT 127.0.0.1:8080
    /// HTTP/1.1`), microsocks' `connected to host:port` lines.
    var requests: [String] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            if let range = line.range(of: "Request (file descriptor ") {
                return line[range.upperBound...].split(separator: " ", maxSplits: 1).last.map(String.init)
            }
            if let range = line.range(of: "connected to ") { return String(line[range.upperBound...]) }
            return nil
        }
    }

    /// Runs `body` with `program` listening on a free loopback port, then stops it.
    /// - Parameter user: the user name and password the proxy requires (tinyproxy's
    ///   `BasicAuth`, microsocks' `-u`/`-P`); `nil`: none.
    static func with<T: Sendable>(
        _ program: Program, user: (name: String, password: String)? = nil,
        _ body: (ProxyServer) async throws -> T
    ) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-proxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try ClosedPort().port  // free now: the bound socket is closed again here
        let log = folder.appendingPathComponent("proxy.log")
        try Data().write(to: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.rawValue)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        switch program {
        case .tinyproxy:
            let configuration = folder.appendingPathComponent("tinyproxy.conf")
            var lines = [
                "Port \(port)", "Listen 127.0.0.1", "Timeout 30", "LogFile \"\(log.path)\"", "LogLevel Connect",
                "MaxClients 100", "Allow 127.0.0.1", "DisableViaHeader Yes",
            ]
            if let user { lines.append("BasicAuth \(user.name) \(user.password)") }
            try lines.joined(separator: "\n").write(to: configuration, atomically: true, encoding: .utf8)
            process.arguments = ["-d", "-c", configuration.path]
        case .microsocks:
            process.arguments =
                ["-i", "127.0.0.1", "-p", "\(port)"] + (user.map { ["-u", $0.name, "-P", $0.password] } ?? [])
            process.standardError = try FileHandle(forWritingTo: log)
        }
        try process.run()
        defer {
            // SIGKILL: the child inherits the blocked signals of the thread that starts it, SIGTERM among them.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try await waitUntilListening(port)
        return try await body(ProxyServer(port: port, log: log))
    }

    private static func waitUntilListening(_ port: Int) async throws {
        for _ in 0..<100 {
            if canConnect(port) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        struct NotListening: Error {}
        throw NotListening()
    }

    private static func canConnect(_ port: Int) -> Bool {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
