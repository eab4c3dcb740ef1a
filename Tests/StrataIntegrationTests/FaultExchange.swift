import Foundation
import HTTPTypes
import Strata

/// One call through a ``Networker`` set up as the fault tests require: a 3 s deadline
/// for the whole call and a 32 MiB body limit.
enum FaultExchange {
    /// The call's deadline (``Networker/Configuration/timeout``).
    static let deadline = Duration.seconds(3)
    /// How much longer than the deadline a call may take before it counts as hanging.
    static let margin = Duration.seconds(1)
    /// ``Networker/Configuration/maxResponseBodySize``: 32 MiB.
    static let bodyLimit = 32 * 1024 * 1024

    /// A client over `transport` with the fault tests' deadline (or `deadline`) and body limit.
    static func networker(over transport: any Transport, deadline: Duration = deadline) -> Networker {
        var configuration = Networker.Configuration()
        configuration.timeout = deadline
        configuration.maxResponseBodySize = bodyLimit
        return Networker(transport: transport, configuration: configuration)
    }

    /// Loads `url` as `Data` and returns what came of it and how long it took.
    static func run(
        _ url: URL,
        with networker: Networker,
        method: HTTPRequest.Method = .get,
        headers: HTTPFields = [:],
        body: Data? = nil
    ) async -> (FaultObservation, elapsed: Duration) {
        let request = RequestDescription(
            route: url, method: method, headers: headers,
            body: body.map { .data($0, contentType: "text/plain") })
        let start = ContinuousClock.now
        let result: Result<EndpointResponse<Data>, StrataError>
        do {
            result = .success(try await networker.response(for: Endpoint<Data>(request)))
        } catch {
            result = .failure(error)
        }
        return (FaultObservation(result), start.duration(to: .now))
    }

    /// Prints `columns` as a Markdown table row when `STRATA_FAULT_REPORT` is set, for the
    /// expected-versus-actual report; prints nothing otherwise.
    static func report(_ columns: String...) {
        guard ProcessInfo.processInfo.environment["STRATA_FAULT_REPORT"] != nil else { return }
        print("FAULT-REPORT | " + columns.joined(separator: " | ") + " |")
    }

    /// `1.23 s`, for the report.
    static func seconds(_ duration: Duration) -> String {
        let parts = duration.components
        let value = Double(parts.seconds) + Double(parts.attoseconds) / 1e18
        return String(format: "%.2f s", value)
    }
}
