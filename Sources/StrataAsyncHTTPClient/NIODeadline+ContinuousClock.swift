import NIOCore

extension NIODeadline {
    /// How long a request without a deadline may take: long enough to mean "no limit".
    static let noDeadlineTimeout: TimeAmount = .hours(24 * 365)

    /// The NIO deadline at the same moment as `instant`: now plus the time remaining
    /// until it (a deadline in the past is already due). `nil` means no deadline, which
    /// becomes a deadline ``noDeadlineTimeout`` away.
    init(_ instant: ContinuousClock.Instant?) {
        guard let instant else {
            self = .now() + Self.noDeadlineTimeout
            return
        }
        let remaining = ContinuousClock.now.duration(to: instant)
        self = .now() + TimeAmount(max(remaining, .zero))
    }
}
