import Foundation

/// Writes lines to standard output unbuffered, so they show at once even in a pipe.
enum Console {
    /// Writes `text` and a newline; output to a closed pipe is dropped, not fatal.
    static func print(_ text: String) {
        write(text + "\n")
    }

    /// Writes `text` as it is, for output that arrives in pieces.
    static func write(_ text: String) {
        try? FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    }
}
