import ArgumentParser
import Foundation
import Logging
import Strata
import StrataDemo
import StrataDemoServer
import StrataGRPCDemo

/// Runs the tour: against the embedded server (started and stopped here) or an
/// external one, printing the transcript as the steps finish.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
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
        let grpcSteps = await secondProtocol(httpBaseURL: baseURL, on: open.transport)
        let trustSteps = await trust(on: open.transport)
        let webSocketSteps = await webSockets(on: open.transport)

        var shutdownProblem: (any Error)?
        do {
            try await open.shutdown()
        } catch {
            shutdownProblem = error
        }
        await server?.shutdown()

        if let trace { Console.print(trace.summary()) }
        Console.print(Transcript.footer(for: report))
        let grpcFailures = grpcSteps?.failed ?? []
        let trustFailures = trustSteps?.failed ?? []
        let webSocketFailures = webSocketSteps?.failed ?? []
        for (name, steps) in [("gRPC", grpcSteps), ("trust", trustSteps), ("WebSocket", webSocketSteps)] {
            guard let steps else { continue }
            Console.print(
                steps.failed.isEmpty
                    ? "✔ All \(steps.total) \(name) steps behaved as expected."
                    : "✘ \(steps.failed.count) of \(steps.total) \(name) steps did not behave as expected: "
                        + steps.failed.joined(separator: ", "))
        }
        if let shutdownProblem {
            Console.print("✘ The \(transport.displayName) transport did not shut down cleanly: \(shutdownProblem)")
        }
        guard report.allPassed, grpcFailures.isEmpty, trustFailures.isEmpty, webSocketFailures.isEmpty,
            shutdownProblem == nil
        else {
            throw ExitCode.failure
        }
    }

    /// The "Second protocol" section: the embedded demo gRPC server, toured with
    /// ``GRPCTour``: how many steps it had and the titles of those that failed, or `nil`
    /// when skipped (touring an external server, which serves no gRPC here, and where
    /// grpc-swift 2 is not available).
    private func secondProtocol(httpBaseURL: URL, on transport: any Transport) async -> (total: Int, failed: [String])?
    {
        guard externalBaseURL == nil, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        else { return nil }
        Console.print("\nSecond protocol · gRPC through the same routes, model layers and .resilient() policies")
        let server: DemoGRPCServer
        do {
            server = try await DemoGRPCServer.start()
        } catch {
            Console.print("✘ the demo gRPC server did not start: \(error)")
            return (1, ["start the demo gRPC server"])
        }
        let steps = await GRPCTour(grpcPort: server.port, httpBaseURL: httpBaseURL, httpTransport: transport).run {
            Self.print($0, label: "gRPC ")
        }
        await server.shutdown()
        return (steps.count, steps.filter { !$0.passed }.map(\.title))
    }

    /// The "Trust" section: the demo API over HTTPS with a CA the demo makes, toured with
    /// ``TrustTour``; `nil` when skipped (an external server, or no grpc-swift 2).
    private func trust(on transport: any Transport) async -> (total: Int, failed: [String])? {
        guard externalBaseURL == nil, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        else { return nil }
        Console.print("\nTrust · whom the client trusts over TLS: roots, pins, and why a server was refused")
        let choice = self.transport
        let steps = await TrustTour(transport: transport) { try choice.trusting($0) }.run { Self.print($0, label: "") }
        return (steps.count, steps.filter { !$0.passed }.map(\.title))
    }

    /// The "WebSockets" section: a chat room on the demo's WebSocket server, toured with
    /// ``WebSocketTour``; `nil` when skipped (an external server, built without the
    /// `WebSocket` trait, or on Apple platforms, where the chat room's server is not linked:
    /// ChatServer.swift). URLSession on Linux opens no sockets: the section shows its refusal.
    private func webSockets(on transport: any Transport) async -> (total: Int, failed: [String])? {
        #if WebSocket && canImport(HummingbirdWebSocket)
            guard externalBaseURL == nil, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
            else { return nil }
            Console.print(
                "\nWebSockets · a chat room: the handshake through the client's steps, reconnection, a clean close")
            let steps: [GRPCTour.Step]
            #if canImport(FoundationNetworking)
                if self.transport == .urlsession {
                    steps = await GRPCTour.Step.run(
                        [
                            (
                                "URLSession on Linux refuses WebSockets, saying why",
                                { try await Self.refusal(on: transport) }
                            )
                        ]
                    ) { Self.print($0, label: "") }
                    return (steps.count, steps.filter { !$0.passed }.map(\.title))
                }
            #endif
            steps = await WebSocketTour(transport: transport).run { Self.print($0, label: "") }
            return (steps.count, steps.filter { !$0.passed }.map(\.title))
        #else
            return nil
        #endif
    }

    /// Opens a socket over `transport` and expects the typed refusal.
    private static func refusal(on transport: any Transport) async throws -> String {
        do {
            _ = try await Networker(transport: transport).webSocket(RequestDescription(route: "ws://127.0.0.1:1/chat"))
        } catch {
            guard case .unsupported(let reason)? = error.webSocketError else { throw error }
            return "StrataError.webSocket, unsupported: \(reason)"
        }
        throw ExitCode.failure
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    private static func print(_ step: GRPCTour.Step, label: String) {
        let time = String(
            format: "%.1f ms",
            Double(step.duration.components.attoseconds) / 1e15 + Double(step.duration.components.seconds) * 1000)
        Console.print("\(step.passed ? "✔" : "✘") \(label)\(step.title)  \(time)\n      \(step.summary)")
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
        #if canImport(FoundationNetworking)
            let foundationNetworking = self.transport == .urlsession
        #else
            let foundationNetworking = false
        #endif
        let skipping = DemoTour.unsupportedSteps(onURLSessionOverFoundationNetworking: foundationNetworking)
        return await DemoTour(baseURL: baseURL, transport: transport, middleware: middleware, skipping: skipping).run(
            onSection: { Console.print(Transcript.heading($0)) },
            onResult: { Console.print(Transcript.line(for: $0)) },
            onProgress: { Console.write($0) })
    }
}
