import Foundation
import HTTPTypes

/// Per-call settings written where the call is made, each returning a changed copy, so
/// one expression describes the whole call:
///
/// ```swift
/// let user = try await networker.send(
///     Endpoint(request, decoding: User.self)
///         .timeout(.seconds(5))
///         .header("X-Trace", traceID)
///         .retry(.never))
/// ```
///
/// Each sets the matching stored property of ``Endpoint``; a later modifier of the same
/// kind wins, except header fields and attributes, which accumulate by name.
extension Endpoint {
    /// How long the whole call may take, response body included (``timeout``).
    public func timeout(_ duration: Duration) -> Endpoint {
        with { $0.timeout = duration }
    }

    /// How long each attempt may wait for the response head (``attemptTimeout``).
    public func attemptTimeout(_ duration: Duration) -> Endpoint {
        with { $0.attemptTimeout = duration }
    }

    /// Which responses count as success for this call (``validation``).
    public func validation(_ validation: ResponseValidation) -> Endpoint {
        with { $0.validation = validation }
    }

    /// The decoder this call's response is parsed with (``jsonDecoder``).
    public func decoder(_ decoder: JSONDecoder) -> Endpoint {
        with { $0.jsonDecoder = decoder }
    }

    /// The encoder this call's JSON parameters are encoded with (``jsonEncoder``).
    public func encoder(_ encoder: JSONEncoder) -> Endpoint {
        with { $0.jsonEncoder = encoder }
    }

    /// Sets these header fields on the request, replacing fields of the same name.
    public func headers(_ fields: HTTPFields) -> Endpoint {
        with { $0.request.setHeaders(fields) }
    }

    /// Sets header fields named by strings, replacing fields of the same name. An invalid
    /// name does not trap: sending fails with ``StrataError/Kind/encoding`` and a
    /// ``HeaderFieldError``.
    public func headers(_ fields: HeaderList) -> Endpoint {
        with { $0.request.setHeaders(fields) }
    }

    /// Sets one header field, replacing any field of the same name.
    public func header(_ name: HTTPField.Name, _ value: String) -> Endpoint {
        headers([name: value])
    }

    /// Sets one header field named by a string, replacing any field of the same name; an
    /// invalid name fails the call as the string-named `headers(_:)` describes.
    public func header(_ name: String, _ value: String) -> Endpoint {
        headers(HeaderList([HeaderList.Field(name: name, value: value)]))
    }

    /// Sets one option for the client's features under `key` (``options``): the
    /// modifier a feature's own modifiers are made of.
    public func option<Key: CallValueKey>(_ key: Key.Type, _ value: Key.Value) -> Endpoint {
        with { $0.options[key] = value }
    }

    /// Sets one attribute middleware can act on (``attributes``).
    public func attribute(_ key: String, _ value: String) -> Endpoint {
        with { $0.attributes[key] = value }
    }

    /// A copy with `change` applied.
    private func with(_ change: (inout Endpoint) -> Void) -> Endpoint {
        var copy = self
        change(&copy)
        return copy
    }
}
