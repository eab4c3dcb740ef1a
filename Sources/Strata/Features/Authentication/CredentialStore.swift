import Logging

/// The state an ``AuthenticationMiddleware`` shares between its requests: the current
/// credential and its generation, the one load or refresh in flight, and when recent
/// refreshes started.
///
/// The one implementation of single-flight renewal that Strata's HTTP step and its gRPC
/// interceptor both drive.
package final class CredentialStore<Provider: CredentialProvider>: Sendable {
    package typealias Issued = IssuedCredential<Provider.Credential>
    package typealias Flight = CredentialFlight<Provider.Credential>

    /// What a request does next about its credential.
    package enum Plan {
        /// Send with this credential.
        case use(Issued)
        /// Wait for this load or refresh.
        case wait(Flight)
        /// A refresh started after the request was sent failed with this error.
        case failed(any Error)
    }

    private struct State {
        var current: (credential: Provider.Credential, generation: Int)?
        var flight: Flight?
        var flightsStarted = 0
        /// The error of the last load or refresh, until one succeeds.
        var lastFailure: (any Error)?
        /// When the refreshes of the window started, oldest first.
        var refreshStarts: [ContinuousClock.Instant] = []

        /// The current credential as handed to a request now.
        func issue(_ current: (credential: Provider.Credential, generation: Int)) -> Issued {
            Issued(credential: current.credential, generation: current.generation, flightsSeen: flightsStarted)
        }
    }

    private let state = Locked(State())
    package let provider: Provider
    private let maxRefreshes: Int
    private let interval: Duration
    private let now: @Sendable () -> ContinuousClock.Instant

    package init(
        provider: Provider, maxRefreshes: Int, interval: Duration,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.provider = provider
        self.maxRefreshes = max(0, maxRefreshes)
        self.interval = max(.zero, interval)
        self.now = now
    }

    /// The plan for a request about to be sent: the current credential, or a wait for the
    /// load or refresh in flight or for the first load.
    package func credential(logger: Logger) -> Plan {
        state.withLock { state -> Plan in
            if let flight = state.flight { return .wait(flight) }
            guard let current = state.current else {
                return .wait(startFlight(in: &state, rejecting: nil, logger: logger))
            }
            return .use(state.issue(current))
        }
    }

    /// The plan for a request whose `issued` credential was rejected (or is expired): the
    /// newer credential when another request already renewed it, the refresh in flight,
    /// the failure of a refresh started since the request was sent, or a new refresh to
    /// wait for; `nil` when the refresh window is used up.
    package func renewal(after issued: Issued, context: MiddlewareContext) -> Plan? {
        let logger = context.logger
        let now = now()
        var started = false
        let plan = state.withLock { state -> Plan? in
            if let current = state.current, current.generation > issued.generation { return .use(state.issue(current)) }
            if let flight = state.flight { return .wait(flight) }
            if state.flightsStarted > issued.flightsSeen, let failure = state.lastFailure { return .failed(failure) }
            state.refreshStarts.removeAll { $0 + interval <= now }
            guard state.refreshStarts.count < maxRefreshes else { return nil }
            state.refreshStarts.append(now)
            started = true
            return .wait(startFlight(in: &state, rejecting: issued.credential, logger: logger))
        }
        if started { context.updateRecord(CredentialRefreshesKey.self) { $0 = ($0 ?? 0) + 1 } }
        if plan == nil {
            logger.warning(
                "credential refresh limit reached",
                metadata: [
                    "strata.auth.generation": "\(issued.generation)",
                    "strata.auth.max_refreshes": "\(maxRefreshes)", "strata.auth.interval": "\(interval)",
                ])
        }
        return plan
    }

    /// Registers a new flight that loads the first credential (`rejected == nil`) or
    /// replaces `rejected`, and starts it once the lock is released.
    private func startFlight(in state: inout State, rejecting rejected: Provider.Credential?, logger: Logger) -> Flight
    {
        state.flightsStarted += 1
        let flight = Flight(number: state.flightsStarted)
        state.flight = flight
        // A plain `Task` is enqueued, never run inline, so it cannot take the lock held here.
        Task { await self.run(flight, rejecting: rejected, logger: logger) }
        return flight
    }

    /// Loads or refreshes, records the outcome, then wakes the flight's waiters.
    private func run(_ flight: Flight, rejecting rejected: Provider.Credential?, logger: Logger) async {
        let result: Result<Provider.Credential, any Error>
        do {
            if let rejected {
                result = .success(try await provider.refresh(rejected))
            } else {
                result = .success(try await provider.currentCredential())
            }
        } catch {
            result = .failure(error)
        }
        let outcome = state.withLock { state -> Flight.Outcome in
            state.flight = nil
            switch result {
            case .success(let credential):
                let generation = (state.current?.generation ?? 0) + 1
                state.current = (credential, generation)
                state.lastFailure = nil
                return .success(Issued(credential: credential, generation: generation, flightsSeen: flight.number))
            case .failure(let error):
                state.lastFailure = error
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let issued):
            let metadata: Logger.Metadata = ["strata.auth.generation": "\(issued.generation)"]
            if rejected == nil {
                logger.debug("credential loaded", metadata: metadata)
            } else {
                logger.info("credential refreshed", metadata: metadata)
            }
        case .failure(let error):
            logger.warning(
                rejected == nil ? "credential load failed" : "credential refresh failed",
                metadata: ["strata.auth.error": "\(error)"])
        }
        flight.finish(outcome)
    }
}

extension CredentialStore {
    /// The credential to send a request with: the current one, or the one a load or
    /// refresh in flight brings, and a renewed one when the provider says it expired.
    /// - Throws: what `failure` makes of the provider's error; ``TransportError`` of kind
    ///   ``TransportError/Kind/timedOut`` when the deadline passes while it waits (the call
    ///   ends as its timeout), `CancellationError` when the request is cancelled.
    package func credential(
        for context: MiddlewareContext, failure: (any Error) -> any Error
    ) async throws -> Issued {
        let issued = try await settle(credential(logger: context.logger), deadline: context.deadline, failure: failure)
        guard provider.isExpired(issued.credential), let renewal = renewal(after: issued, context: context) else {
            return issued
        }
        return try await settle(renewal, deadline: context.deadline, failure: failure)
    }

    /// The credential `plan` leads to, waiting for a load or refresh until `deadline`.
    /// - Throws: what `failure` makes of the provider's error; ``TransportError`` of kind
    ///   ``TransportError/Kind/timedOut`` when `deadline` passes while it waits (the call
    ///   ends as its timeout), `CancellationError` when the request is cancelled.
    package func settle(
        _ plan: Plan, deadline: ContinuousClock.Instant?, failure: (any Error) -> any Error
    ) async throws -> Issued {
        switch plan {
        case .use(let issued):
            return issued
        case .failed(let error):
            throw failure(error)
        case .wait(let flight):
            switch try await Deadline.within(deadline, { try await flight.outcome() }) {
            case .success(let issued): return issued
            case .failure(let error): throw failure(error)
            }
        }
    }
}
