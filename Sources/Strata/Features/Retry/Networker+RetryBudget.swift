extension Networker {
    /// The retry budget of the client's ``RetryMiddleware``, when it has one: what other
    /// features that retry on their own (an event stream's reconnections) spend too.
    var retryBudget: RetryBudget? {
        for step in middleware {
            if let retry = step as? RetryMiddleware { return retry.budget }
        }
        return nil
    }
}
