import AsyncHTTPClient

/// The `HTTPClient` an ``AsyncHTTPClientTransport`` created, shut down when the last copy
/// of the transport (and the last response body it is still streaming) is gone.
///
/// AsyncHTTPClient traps in debug builds when a running client is deinitialised, so a
/// transport that is simply dropped — `Networker()` on Linux, a transport made inline in
/// an example — would stop the program. Starting the shutdown here keeps the client alive
/// until its connection pool has closed (AsyncHTTPClient holds it during the shutdown),
/// after which it is released in the shut-down state. An explicit
/// ``AsyncHTTPClientTransport/shutdown()`` before that makes this one a no-op.
final class OwnedClient: Sendable {
    let client: HTTPClient

    init(_ client: HTTPClient) {
        self.client = client
    }

    deinit {
        client.shutdown { _ in }  // `alreadyShutdown` after an explicit shutdown: nothing to do
    }
}
