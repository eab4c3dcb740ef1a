import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 child channel, with every connection kept in a
/// ``ConnectionLedger`` from set-up until its handler returns.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
struct LedgeredHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let ledger: ConnectionLedger

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let ledger = self.ledger
        guard ledger.isOpen else {
            // The server has stopped: refuse the connection before it has an async writer.
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(ConnectionLedger.Closed())
        }
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { connection in
            guard ledger.adopt(connection) else {
                // Closed in between. The channel is not active yet, so NIO still owns the
                // writer and finishes it when the channel's handlers are removed.
                channel.close(promise: nil)
                throw ConnectionLedger.Closed()
            }
            return connection
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
        // `handle` always runs `executeThenClose`, which finished the writer.
        ledger.release(value)
    }
}
