import Foundation
import StrataDemoServer

/// `--serve`: runs the embedded server alone until Ctrl-C (or `SIGTERM`).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum ServeMode {
    static func run(port: Int) async throws {
        let server = try await DemoServer.start(port: port, stopsOnSignals: true)
        let url = server.baseURL.absoluteString
        Console.print(
            """
            Strata demo server listening on \(url)
            Try:  curl \(url)/users/1
                  swift run --enable-all-traits strata-demo --base-url \(url)
            Press Ctrl-C to stop.
            """)
        try await server.runUntilCancelled()
        Console.print("Stopped.")
    }
}
