import ArgumentParser
import Foundation

/// `swift run --enable-all-traits strata-demo`: starts the embedded demo server and tours Strata's
/// features against it, one transcript line a step.
@main
struct StrataDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-demo",
        abstract: "A guided tour of Strata against an embedded demo server.",
        discussion: """
            By default the command starts the demo API on 127.0.0.1, runs every step of the \
            tour against it and exits with status 0 when each step behaved as expected \
            (expected failures included), 1 otherwise.
            """)

    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp(
            "Run the tour against this server instead of the embedded one.", valueName: "url"))
    var baseURL: String?

    @Option(help: "The transport: \(TransportChoice.allCases.map(\.rawValue).joined(separator: " or ")).")
    var transport: TransportChoice = .default

    @Flag(help: "Log every request and response (LoggingMiddleware on a stdout log handler).")
    var verbose = false

    @Flag(help: "Trace every attempt (TelemetryMiddleware) and print the spans and their durations at the end.")
    var trace = false

    @Flag(help: "Only run the embedded server and print its URL, until Ctrl-C.")
    var serve = false

    @Option(help: "The port of the embedded server; 0 picks a free one.")
    var port = 0

    mutating func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
        if serve, baseURL != nil {
            throw ValidationError("--serve runs the embedded server; it cannot be combined with --base-url.")
        }
        if let baseURL {
            guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host != nil
            else {
                throw ValidationError("--base-url must be an http or https URL, such as http://127.0.0.1:8080.")
            }
        }
    }

    func run() async throws {
        // The embedded server is Hummingbird 2's; the entry point itself stays at the
        // package's floor, as `@main` requires.
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *) else {
            throw ValidationError("The demo's embedded server needs macOS 14, iOS 17 or tvOS 17.")
        }
        if serve {
            try await ServeMode.run(port: port)
        } else {
            try await TourMode(
                externalBaseURL: baseURL.flatMap(URL.init(string:)),
                port: port,
                transport: transport,
                verbose: verbose,
                trace: trace ? TraceReport() : nil
            ).run()
        }
    }
}
