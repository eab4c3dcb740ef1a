/// What becomes of a connection once a response (or the lack of one) is written.
enum ConnectionFate: Equatable {
    /// Read the next request on the same connection.
    case keepAlive
    /// Close the connection gracefully (FIN).
    case close
    /// Reset the connection (RST): `SO_LINGER` with a zero timeout, then close.
    case reset
    /// Write nothing more and keep the connection open until the client closes it.
    case holdOpen
}
