import Foundation
import NIOCore

/// Serves one connection: reads requests one after the other, records each and answers
/// it as its ``FaultRoute`` says, until a route ends the connection or the client goes.
struct FaultConnection {
    /// The connection's number, for ``RecordedRequest/connection``.
    let number: Int
    let registry: ConnectionRegistry

    /// Serves `connection` until it ends; failures (a client that went away) end it quietly.
    func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        try? await connection.executeThenClose { inbound, outbound in
            var reader = Reader(inbound: inbound.makeAsyncIterator(), connection: number)
            let responder = FaultResponder(outbound: outbound)
            while true {
                let request: RecordedRequest
                do {
                    guard let next = try await reader.next() else { return }
                    request = next
                } catch is RequestParser.Failure {
                    try await outbound.write(FaultResponses.complete(status: 501, body: "cannot read this request"))
                    return
                }
                registry.record(request)
                switch try await responder.respond(to: FaultRoute(target: request.target)) {
                case .keepAlive:
                    if request.value(for: "connection")?.lowercased() == "close" { return }
                case .close:
                    return
                case .reset:
                    try await (connection.channel as? any SocketOptionProvider)?
                        .setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
                    return
                case .holdOpen:
                    try await reader.drain()
                    return
                }
            }
        }
    }

    /// The requests arriving on the connection's inbound side.
    private struct Reader {
        var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
        let connection: Int
        var parser = RequestParser()

        /// The next request, or `nil` when the client closed the connection first.
        mutating func next() async throws -> RecordedRequest? {
            while true {
                if let request = try parser.next(connection: connection) { return request }
                guard let bytes = try await inbound.next() else { return nil }
                parser.append(bytes)
            }
        }

        /// Reads and drops bytes until the client closes the connection.
        mutating func drain() async throws {
            while try await inbound.next() != nil {}
        }
    }
}
