// `import Strata` is the whole library for an application: the core (StrataCore: the
// contracts, the client and its pipeline, models, routes, requests, encodings, and
// swift-http-types, which it re-exports) and the features in this module on top of it.
// Keep these the only re-exports.
@_exported import StrataCore
