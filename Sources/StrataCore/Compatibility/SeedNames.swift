// The earlier designs' spellings of Strata's names, so that code written after those designs
// compiles as it is. Strata's own code and documentation use the names on the right.

/// The earlier designs' spelling of ``JSON``.
public typealias Json = JSON

/// The earlier designs' spelling of ``URLRouteProvider``.
public typealias UrlRouteProvider = URLRouteProvider
