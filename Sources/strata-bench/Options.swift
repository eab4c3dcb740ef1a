import Foundation

/// The command line, parsed by hand:
///
///     strata-bench [--requests N]                                  # the comparison
///     strata-bench --soak [--server] [--requests N | --seconds S]  # sustained load
///                  [--concurrency C] [--idle-seconds S] [--max-growth-mb X]
struct Options: Sendable {
    /// Measured requests per case and repetition.
    var requests = 2000
    /// Unmeasured requests per case before the first repetition.
    var warmup = 200
    /// Repetitions per case; the median is reported.
    var repetitions = 3
    /// Tasks in the concurrent case.
    var concurrency = 8
    /// Set by `--soak`: run the sustained-load mode instead of the comparison.
    var soak: SoakOptions?

    /// Parses `arguments` (without the program name); `nil` with a message on stderr when invalid.
    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var isSoak = false
        var soak = SoakOptions()
        var requests: Int?
        var seconds: Int?
        var soakOnly: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--requests":
                guard let count = positiveInteger(after: argument, in: &rest) else { return nil }
                requests = count
            case "--soak":
                isSoak = true
            case "--server":
                soak.target = .server
                soakOnly.append(argument)
            case "--seconds":
                guard let count = positiveInteger(after: argument, in: &rest) else { return nil }
                seconds = count
                soakOnly.append(argument)
            case "--concurrency":
                guard let count = positiveInteger(after: argument, in: &rest) else { return nil }
                soak.concurrency = count
                soakOnly.append(argument)
            case "--idle-seconds":
                guard let count: Int = nonNegative(after: argument, in: &rest, "integer") else { return nil }
                soak.idleSeconds = count
                soakOnly.append(argument)
            case "--max-growth-mb":
                guard let limit: Double = nonNegative(after: argument, in: &rest, "number") else { return nil }
                soak.maxGrowthMB = limit
                soakOnly.append(argument)
            case "-h", "--help":
                print(usage)
                exit(0)
            default:
                printError("unknown argument \(argument)\n\(usage)")
                return nil
            }
        }

        guard isSoak else {
            if let first = soakOnly.first {
                printError("\(first) needs --soak\n\(usage)")
                return nil
            }
            if let requests { options.requests = requests }
            return options
        }
        switch (requests, seconds) {
        case (let requests?, nil): soak.length = .requests(requests)
        case (nil, let seconds?): soak.length = .seconds(seconds)
        case (nil, nil): soak.length = soak.target == .mock ? .requests(200_000) : .seconds(30)
        case (_?, _?):
            printError("--requests and --seconds cannot be combined")
            return nil
        }
        options.soak = soak
        return options
    }

    static let usage = """
        usage: swift run -c release strata-bench [--requests N]
                 raw AsyncHTTPClient versus Strata; N requests per case (default 2000)
               swift run -c release strata-bench --soak [--server] [--requests N | --seconds S]
                 [--concurrency C] [--idle-seconds S] [--max-growth-mb X]
                 sustained load with the default 60 s timeout, sampling RSS:
                 a Networker over an in-bench instant transport (default 200000 requests),
                 or with --server over AsyncHTTPClient against the test server (default 30 s);
                 C tasks (default 16); S seconds idle after the load (default 5);
                 exits 1 when RSS grows more than X MB after the warm-up
        """

    private static func nonNegative<Value: LosslessStringConvertible & Comparable & Numeric>(
        after flag: String, in rest: inout ArraySlice<String>, _ kind: String
    ) -> Value? {
        guard let text = rest.popFirst(), let value = Value(text), value >= .zero else {
            printError("\(flag) needs a non-negative \(kind)")
            return nil
        }
        return value
    }

    private static func positiveInteger(after flag: String, in rest: inout ArraySlice<String>) -> Int? {
        guard let value = rest.popFirst(), let count = Int(value), count > 0 else {
            printError("\(flag) needs a positive integer")
            return nil
        }
        return count
    }
}

/// The settings of `--soak`.
struct SoakOptions: Sendable {
    /// What the load runs against.
    enum Target: Sendable {
        /// A `Networker` over ``InstantTransport``: no I/O (workload A).
        case mock
        /// A `Networker` over `AsyncHTTPClientTransport` against the test server (workload B).
        case server
    }

    /// How long the load lasts.
    enum Length: Sendable {
        case requests(Int)
        case seconds(Int)
    }

    var target = Target.mock
    var length = Length.requests(200_000)
    /// Tasks sending requests at once.
    var concurrency = 16
    /// Seconds to keep sampling after the load stops.
    var idleSeconds = 5
    /// With `--max-growth-mb`: the most RSS may grow after the warm-up before the run fails.
    var maxGrowthMB: Double?
}

/// Writes `message` and a newline to stderr.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
