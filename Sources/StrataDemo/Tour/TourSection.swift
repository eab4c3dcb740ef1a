/// The parts of the tour, in order; the transcript prints a heading for each.
public enum TourSection: String, Sendable, CaseIterable {
    /// The two model layers.
    case models
    /// An endpoint loaded with a `Result` callback.
    case callbacks
    /// The parameter encodings.
    case encodings
    /// Request metadata and authentication.
    case headersAndAuth
    /// Failures that are expected, as typed errors.
    case errors
    /// Retries, token refresh and the other resilience steps.
    case resilience
    /// A ``CacheMiddleware``: the cached value then the fresh one, and the offline fallback.
    case caching
    /// An ``Outbox``: writes kept through an outage and delivered once.
    case offlineWrites
    /// Server-sent events: a chat completion token by token, a feed that resumes.
    case streams
    /// A download that resumes, and a paged list.
    case transfers
    /// The demo API's generated OpenAPI client over the tour's client.
    case openAPI

    /// The heading printed before the section's steps.
    public var title: String {
        switch self {
        case .models: "Models · raw layer (UserEntry) and app layer (User)"
        case .callbacks: "Callbacks · Endpoint + networker.load { result in … }"
        case .encodings: "Encodings · URL query, JSON body, multipart"
        case .headersAndAuth: "Headers and auth · HeadersMiddleware, form login, bearer token"
        case .errors: "Errors · every failure is a StrataError with a kind"
        case .resilience: "Resilience · the .resilient() preset: retries with backoff and a budget, token refresh"
        case .caching: "Caching · CacheMiddleware: cacheThenRemote, offline fallback"
        case .offlineWrites: "Offline writes · Outbox: writes kept through an outage, delivered once each"
        case .streams: "Streams · server-sent events: tokens as they arrive, reconnection that resumes"
        case .transfers: "Transfers · a download and an upload that resume after a cut, a paged list"
        case .openAPI: "OpenAPI · a generated client over Strata: typed responses, the .resilient() policies"
        }
    }
}
