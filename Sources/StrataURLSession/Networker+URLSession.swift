import Strata

extension Networker {
    /// A client over a ``URLSessionTransport`` of its own with the default
    /// configuration and no middleware: seed 003's `let networker = Networker()`.
    ///
    /// Each call creates a new `URLSession`, so make the client once and share it.
    public init() {
        self.init(transport: URLSessionTransport())
    }
}
