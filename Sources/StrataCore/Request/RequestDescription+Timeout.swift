/// Where a request's timeout is not: a request says what to send, its ``Endpoint`` how the
/// call runs. These exist only to point there at compile time; being unavailable, they are
/// never called, and their bodies change nothing.
extension RequestDescription {
    /// Not available: a call's timeout belongs to its endpoint.
    @available(
        *, unavailable,
        message:
            "a call's timeout is its endpoint's: Endpoint(request, decoding: T.self).timeout(.seconds(5)) (GRPCEndpoint over gRPC), or the client's Configuration.timeout for every call"
    )
    public func timeout(_ duration: Duration) -> RequestDescription {
        self
    }

    /// Not available: a call's timeout belongs to its endpoint.
    @available(
        *, unavailable,
        message:
            "a call's timeout is its endpoint's: endpoint.timeout(.seconds(5)) on an Endpoint (GRPCEndpoint over gRPC), or the client's Configuration.timeout for every call"
    )
    public var timeout: Duration? {
        get { nil }
        set {}
    }
}
