import Foundation

/// The command line: `strata-bench [--requests N]`, parsed by hand.
struct Options: Sendable {
    /// Measured requests per case and repetition.
    var requests = 2000
    /// Unmeasured requests per case before the first repetition.
    var warmup = 200
    /// Repetitions per case; the median is reported.
    var repetitions = 3
    /// Tasks in the concurrent case.
    var concurrency = 8

    /// Parses `arguments` (without the program name); `nil` with a message on stderr when invalid.
    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--requests":
                guard let value = rest.popFirst(), let count = Int(value), count > 0 else {
                    printError("--requests needs a positive integer")
                    return nil
                }
                options.requests = count
            case "-h", "--help":
                print(usage)
                exit(0)
            default:
                printError("unknown argument \(argument)\n\(usage)")
                return nil
            }
        }
        return options
    }

    static let usage = "usage: swift run -c release strata-bench [--requests N]   (default 2000)"
}

/// Writes `message` and a newline to stderr.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
