/// A middleware step whose own waits end by the context's
/// ``MiddlewareContext/deadline``: it reads response bodies only within it, and waits
/// for nothing else but `next` and waits that stop at the deadline. A ``Networker``
/// whose steps all are, over a transport that ``Transport/enforcesDeadline``, runs a call
/// up to the response head in the caller's task; anything else gets a task of the
/// `Networker`'s own, which it abandons at the deadline.
///
/// Internal on purpose: the list below is Strata's own steps, each read for it (their
/// body reads go through ``MessageBody/discard(until:)`` or a run under the deadline; the
/// retry step's waits end before the deadline; the authentication step waits for a
/// credential under the deadline). A step outside it (an app's own) makes the client keep
/// the task.
protocol DeadlineBounded {
    /// Whether this step, as configured, bounds its own waits.
    var boundsItsWaits: Bool { get }
}

extension DeadlineBounded {
    var boundsItsWaits: Bool { true }
}

extension RedirectMiddleware: DeadlineBounded {}
extension RetryMiddleware: DeadlineBounded {}
extension HeadersMiddleware: DeadlineBounded {}
extension LoggingMiddleware: DeadlineBounded {}
extension ValidationMiddleware: DeadlineBounded {}
extension CircuitBreakerMiddleware: DeadlineBounded {}
extension AuthenticationMiddleware: DeadlineBounded {}

extension CacheMiddleware: DeadlineBounded {
    /// With ``MemoryCacheStore`` only: another store's calls are code Strata cannot vouch for.
    var boundsItsWaits: Bool { store is MemoryCacheStore }
}
