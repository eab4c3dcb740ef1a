// The seed documents' spellings of Strata's names, so that code written after the seeds
// compiles as it is. Strata's own code and documentation use the names on the right.

/// The seed documents' spelling of ``JSON``.
public typealias Json = JSON

/// The seed documents' spelling of ``URLRouteProvider``.
public typealias UrlRouteProvider = URLRouteProvider
