// On Apple platforms the chat room is compiled out: its server, hummingbird-websocket,
// needs macOS 14 / iOS 17 / tvOS 17, above Strata's floor, so Strata links it on Linux
// only (Package.swift, Integration.linuxProduct).
#if WebSocket && canImport(HummingbirdWebSocket)
    import Foundation
    import Hummingbird
    import HummingbirdWebSocket
    import Logging
    import NIOCore
    import Strata
    import StrataServerLifecycle

    /// The demo's chat room over WebSockets (hummingbird-websocket), on 127.0.0.1:
    /// `/chat?name=N` connects member N. A member's `/join` joins the room (the server
    /// announces it to everyone joined, the member included); any other text goes to every
    /// member as `{"from": N, "text": …}`; `/drop` makes the server drop the member's
    /// connection without a close frame, as a network would. Leaving is announced.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    struct ChatServer {
        /// `ws://127.0.0.1:PORT`.
        let baseURL: String
        private let server: InProcessServer

        /// One line of the room, as the server sends it.
        struct Line: Codable, Equatable, Sendable, CustomStringConvertible {
            let from: String
            let text: String

            var description: String { "\(from): \(text)" }
        }

        /// The members who joined, by connection.
        private final class Room: Sendable {
            private let members = Locked<[ObjectIdentifier: WebSocketOutboundWriter]>([:])

            func join(_ id: ObjectIdentifier, _ outbound: WebSocketOutboundWriter) {
                members.withLock { $0[id] = outbound }
            }

            /// Removes the member; whether it had joined.
            func leave(_ id: ObjectIdentifier) -> Bool {
                members.withLock { $0.removeValue(forKey: id) } != nil
            }

            func broadcast(_ line: Line) async {
                let text = String(decoding: (try? JSONEncoder().encode(line)) ?? Data(), as: UTF8.self)
                for outbound in members.withLock({ Array($0.values) }) {
                    try? await outbound.write(.text(text))
                }
            }
        }

        /// Starts the room on a free port.
        static func start() async throws -> ChatServer {
            let room = Room()
            var logger = Logger(label: "strata.demo.chat")
            logger.logLevel = .critical
            let server = try await InProcessServer.start(
                router: Router(),
                server: .http1WebSocketUpgrade { request, channel, _ in
                    let name =
                        URLComponents(string: request.path ?? "")?.queryItems?.first { $0.name == "name" }?.value
                        ?? "guest"
                    return .upgrade([:]) { inbound, outbound, _ in
                        try await serve(name, channel: channel, inbound, outbound, in: room)
                    }
                },
                serverName: "strata-demo-chat", logger: logger)
            return ChatServer(baseURL: "ws://127.0.0.1:\(server.port)", server: server)
        }

        /// One member's connection.
        private static func serve(
            _ name: String, channel: any Channel, _ inbound: WebSocketInboundStream,
            _ outbound: WebSocketOutboundWriter, in room: Room
        ) async throws {
            let id = ObjectIdentifier(channel)
            do {
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    guard case .text(let text) = message else { continue }
                    switch text {
                    case "/join":
                        room.join(id, outbound)
                        await room.broadcast(Line(from: "room", text: "\(name) joined"))
                    case "/drop":
                        try await channel.close()
                    default:
                        await room.broadcast(Line(from: name, text: text))
                    }
                }
            } catch {
                // The connection went (dropped here, or by the member): the member left.
            }
            if room.leave(id) { await room.broadcast(Line(from: "room", text: "\(name) left")) }
        }

        /// Stops the server.
        func shutdown() async {
            await server.shutdown()
        }
    }
#endif
