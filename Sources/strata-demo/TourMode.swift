import ArgumentParser
import Foundation
import Logging
import Strata
import StrataDemo
import StrataDemoServer

/// Runs the tour: against the embedded server (started and stopped here) or an
/// external one, printing the transcript as the steps finish.
struct TourMode {
    /// The server to tour instead of the embedded one.
    let externalBaseURL: URL?
    /// The embedded server's port.
    let port: Int
    let transport: TransportChoice
    let verbose: Bool
    /// With `--trace`: the tracer every attempt reports to.
    let trace: TraceReport?

    func run() async throws {
        let server: DemoServer?
        let baseURL: URL
        if let externalBaseURL {
            server = nil
            baseURL = externalBaseURL
        } else {
            let started = try await DemoServer.start(port: port)
            server = started
            baseURL = started.baseURL
        }
        let open = transport.open()
        let report = await tour(baseURL: baseURL, on: open.transport)

        var shutdownProblem: (any Error)?
        do {
            try await open.shutdown()
        } catch {
            shutdownProblem = error
        }
        await server?.shutdown()

        if let trace { Console.print(trace.summary()) }
        Console.print(Transcript.footer(for: report))
        if let shutdownProblem {
            Console.print("✘ The \(transport.displayName) transport did not shut down cleanly: \(shutdownProblem)")
        }
        guard report.allPassed, shutdownProblem == nil else { throw ExitCode.failure }
    }

    private func tour(baseURL: URL, on transport: any Transport) async -> TourReport {
        Console.print(Transcript.header(baseURL: baseURL, transport: self.transport.displayName))
        var middleware: [any Middleware] = []
        if verbose {
            var logger = Logger(label: "strata.demo") { StreamLogHandler.standardOutput(label: $0) }
            logger.logLevel = .info
            middleware.append(LoggingMiddleware(logger: logger, level: .info))
        }
        if let trace { middleware.append(trace.middleware) }
        return await DemoTour(baseURL: baseURL, transport: transport, middleware: middleware).run(
            onSection: { Console.print(Transcript.heading($0)) },
            onResult: { Console.print(Transcript.line(for: $0)) },
            onProgress: { Console.write($0) })
    }
}
