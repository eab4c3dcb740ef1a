import Foundation
import HTTPTypes
import Strata

/// The guided tour of Strata: a sequence of steps against the demo API that show the
/// model layers, the encodings, callbacks, headers, auth, typed errors, resilience and
/// caching, each checked against what it should produce.
///
/// ```swift
/// let transport = AsyncHTTPClientTransport()
/// let tour = DemoTour(baseURL: server.baseURL, transport: transport)
/// let report = await tour.run(onResult: { print(Transcript.line(for: $0)) })
/// try await transport.shutdown()  // the tour reports failures; it throws none
/// precondition(report.allPassed)
/// ```
///
/// The tour never throws: a step that does not behave as expected is reported as
/// failed, and the next step runs.
public struct DemoTour: Sendable {
    /// The server under test.
    public let baseURL: URL
    private let transport: any Transport
    private let middleware: [any Middleware]
    private let skipping: [TourStepID: String]

    /// The header fields every request of the tour carries, from a ``HeadersMiddleware``.
    public static let clientHeaders: HTTPFields = [
        .userAgent: "strata-demo/1.0",
        .accept: "application/json",
        DemoTour.clientHeaderName: "tour",
    ]

    /// A custom field the ``HeadersMiddleware`` adds, `X-Strata-Demo`. (The name is a
    /// valid token, so the fallback is never used; it only avoids a force unwrap.)
    public static let clientHeaderName = HTTPField.Name("X-Strata-Demo") ?? .via

    /// Creates a tour.
    /// - Parameters:
    ///   - baseURL: the demo server, embedded or external.
    ///   - transport: the transport the tour's ``Networker`` sends with.
    ///   - middleware: steps added closest to the transport, after the tour's own
    ///     (a ``LoggingMiddleware`` for `--verbose`, say).
    ///   - skipping: steps the transport cannot take part in, with the reason: reported as
    ///     skipped, not as failed (see ``unsupportedSteps(onURLSessionOverFoundationNetworking:)``).
    public init(
        baseURL: URL, transport: any Transport, middleware: [any Middleware] = [],
        skipping: [TourStepID: String] = [:]
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.middleware = middleware
        self.skipping = skipping
    }

    /// The steps URLSession cannot take part in on Linux (FoundationNetworking, over
    /// libcurl), with the reason, for `skipping`; none elsewhere.
    /// - Parameter foundationNetworking: whether the transport is URLSession over
    ///   FoundationNetworking.
    public static func unsupportedSteps(onURLSessionOverFoundationNetworking foundationNetworking: Bool)
        -> [TourStepID: String]
    {
        guard foundationNetworking else { return [:] }
        return [
            .resumableUpload:
                "URLSession on Linux (FoundationNetworking) takes the server's 104 for the final response, so the resumable upload protocol is not spoken over it"
        ]
    }

    /// Runs every step in order and reports on each as it finishes.
    /// - Parameters:
    ///   - onSection: called before the first step of each section, for a heading.
    ///   - onResult: called after each step, for a live transcript.
    ///   - onProgress: called with text a step produces while it runs (a streamed reply,
    ///     token by token), before its result.
    /// - Returns: all the results.
    public func run(
        onSection: (TourSection) -> Void = { _ in },
        onResult: (TourStepResult) -> Void = { _ in },
        onProgress: @escaping @Sendable (String) -> Void = { _ in }
    ) async -> TourReport {
        let exchanges = ExchangeLog()
        let tokens = TokenStore()
        let configuration = {
            var configuration = Networker.Configuration()
            configuration.timeout = .seconds(15)
            // The transcript is the tour's output; warnings (a circuit opening) still show.
            configuration.logger.logLevel = .warning
            return configuration
        }()
        let transport = transport
        let middleware = middleware
        // The resilience preset (redirects, retry with a budget, circuit breaker) around
        // the tour's own steps, which run on every attempt.
        let client = { @Sendable (authentication: (any Middleware)?) -> Networker in
            let credentials: [any Middleware] =
                authentication == nil ? [HeadersMiddleware.bearerToken { await tokens.token }] : []
            return Networker(
                transport: transport,
                middleware: .resilient(
                    authentication: authentication,
                    perAttempt: [HeadersMiddleware(Self.clientHeaders)] + credentials + [
                        ExchangeRecorder(log: exchanges)
                    ] + middleware),
                configuration: configuration)
        }
        let networker = client(nil)
        // The caching steps' client: the cache after the (absent) authentication, as the
        // Caching article recommends, and the recorder below it, so a stored answer records nothing.
        let cache = CacheMiddleware(store: MemoryCacheStore(capacity: 1024 * 1024))
        let cachingNetworker = Networker(
            transport: transport,
            middleware: .resilient(
                perAttempt: [HeadersMiddleware(Self.clientHeaders), cache, ExchangeRecorder(log: exchanges)]
                    + middleware),
            configuration: configuration)
        let backstage = Networker(
            transport: transport, middleware: [HeadersMiddleware(Self.clientHeaders)] + middleware,
            configuration: configuration)
        let session = TourSession(
            api: DemoAPI(baseURL: baseURL), networker: networker, tokens: tokens,
            authenticatedNetworker: { client($0) }, cachingNetworker: cachingNetworker,
            backstage: backstage, progress: onProgress)

        var results: [TourStepResult] = []
        var unreachable: String?
        for step in TourSteps.all {
            if step.section != results.last?.section { onSection(step.section) }
            let result: TourStepResult
            if let unreachable {
                result = Self.skipped(step, because: unreachable)
            } else if let reason = skipping[step.id] {
                result = Self.skipped(step, because: reason, passed: true)
            } else {
                result = await run(step, in: session, exchanges: exchanges)
                // A transport failure before the server ever answered: it is not there,
                // and every further step would only wait for the same failure.
                if result.failedInTransport, results.allSatisfy({ $0.exchange?.status == nil }) {
                    unreachable = "\(baseURL.absoluteString) did not answer"
                }
            }
            onResult(result)
            results.append(result)
        }
        return TourReport(results: results)
    }

    /// A step that did not run: failed (`passed` false) when it should have, passed when the
    /// transport cannot take part in it.
    private static func skipped(_ step: TourStep, because reason: String, passed: Bool = false) -> TourStepResult {
        TourStepResult(
            step: step.id, section: step.section, feature: step.feature, passed: passed, skipped: true,
            exchange: nil, duration: .zero, summary: "skipped: \(reason)", value: nil, error: nil)
    }

    private func run(_ step: TourStep, in session: TourSession, exchanges: ExchangeLog) async -> TourStepResult {
        await exchanges.reset()
        let start = ContinuousClock.now
        let outcome: Result<StepOutcome, any Error>
        do {
            outcome = .success(try await step.run(session))
        } catch {
            outcome = .failure(error)
        }
        let duration = start.duration(to: .now)
        let exchange = await exchanges.last
        switch outcome {
        case .success(let outcome):
            return TourStepResult(
                step: step.id, section: step.section, feature: step.feature, passed: true, skipped: false,
                exchange: exchange, duration: duration, summary: outcome.summary, value: outcome.value,
                error: nil)
        case .failure(let error):
            return TourStepResult(
                step: step.id, section: step.section, feature: step.feature, passed: false, skipped: false,
                exchange: exchange, duration: duration, summary: "unexpected: \(error)", value: nil,
                error: error as? StrataError)
        }
    }
}
