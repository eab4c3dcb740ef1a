import Foundation
import HTTPTypes

/// Sending a ``RequestDescription`` without building an ``Endpoint`` first:
///
/// ```swift
/// let user = try await networker.send(request, decoding: User.self)
/// try await networker.send(RequestDescription(route: route, method: .delete))
/// ```
///
/// `decoding:` reads every model kind as `Endpoint(_:decoding:)`
/// does: app model (`DTODecodable`) > raw DTO (`RawDecodable`) > `Decodable`, and `nil`
/// for an `Optional` when the body is empty; `String` is the body's text and `Data` its
/// bytes. For per-call settings, send an `Endpoint`
/// with its modifiers instead.
extension Networker {
    /// Loads `request` and decodes its body as a `Decodable` type.
    /// - Throws: ``StrataError`` naming the stage that failed.
    @_disfavoredOverload
    public func send<Route: URLRouteProvider, Response: Decodable & StrataSendableMetatype>(
        _ request: RequestDescription<Route>,
        decoding type: Response.Type
    ) async throws(StrataError) -> Response {
        try await send(Endpoint(request, decoding: type))
    }

    /// Loads `request` and reads its body as a raw-layer model (DTO).
    /// - Throws: ``StrataError`` naming the stage that failed.
    public func send<Route: URLRouteProvider, Response: RawDecodable & StrataSendableMetatype>(
        _ request: RequestDescription<Route>,
        decoding type: Response.Type
    ) async throws(StrataError) -> Response {
        try await send(Endpoint(request, decoding: type))
    }

    /// Loads `request` and reads its body as an application model: bytes → DTO → model.
    /// - Throws: ``StrataError`` naming the stage that failed.
    public func send<Route: URLRouteProvider, Response: DTODecodable & StrataSendableMetatype>(
        _ request: RequestDescription<Route>,
        decoding type: Response.Type
    ) async throws(StrataError) -> Response {
        try await send(Endpoint(request, decoding: type))
    }

    /// Loads `request` and reads its body as an application model, for a type that is
    /// also a raw-layer model.
    /// - Throws: ``StrataError`` naming the stage that failed.
    public func send<Route: URLRouteProvider, Response: DTODecodable & RawDecodable & StrataSendableMetatype>(
        _ request: RequestDescription<Route>,
        decoding type: Response.Type
    ) async throws(StrataError) -> Response {
        try await send(Endpoint(request, decoding: type))
    }

    /// Loads `request` and returns its body as UTF-8 text (not as a JSON string literal).
    /// - Throws: ``StrataError`` naming the stage that failed.
    public func send<Route: URLRouteProvider>(
        _ request: RequestDescription<Route>,
        decoding type: String.Type
    ) async throws(StrataError) -> String {
        try await send(Endpoint(request, decoding: type))
    }

    /// Loads `request` and returns its body's bytes as they are (not base64 from JSON).
    /// - Throws: ``StrataError`` naming the stage that failed.
    public func send<Route: URLRouteProvider>(
        _ request: RequestDescription<Route>,
        decoding type: Data.Type
    ) async throws(StrataError) -> Data {
        try await send(Endpoint(request, decoding: type))
    }

    /// Loads `request` and ignores its body, for calls whose answer carries nothing to
    /// read (`DELETE`, say).
    /// - Throws: ``StrataError`` naming the stage that failed.
    public func send<Route: URLRouteProvider>(_ request: RequestDescription<Route>) async throws(StrataError) {
        try await send(Endpoint<Void>(request))
    }
}
