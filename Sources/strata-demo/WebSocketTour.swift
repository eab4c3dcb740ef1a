// The tour needs the chat room (ChatServer.swift), which Apple builds do not have.
#if WebSocket && canImport(HummingbirdWebSocket)
    import Foundation
    import Strata
    import StrataGRPCDemo

    /// The "WebSockets" section: a chat room on the demo's WebSocket server. The tour joins,
    /// sends and reads its echo, reads another member's message, survives a dropped
    /// connection (the socket reconnects and joins again), and leaves with a clean close.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    struct WebSocketTour {
        typealias Line = ChatServer.Line

        /// The client's transport (AsyncHTTPClient opens sockets with the WebSocket trait).
        let transport: any Transport

        /// Starts the room, runs the steps in order (telling `onStep` each outcome), stops
        /// the room and returns the steps.
        func run(onStep: @Sendable (GRPCTour.Step) -> Void) async -> [GRPCTour.Step] {
            let server: ChatServer
            do {
                server = try await ChatServer.start()
            } catch {
                let step = GRPCTour.Step(
                    title: "start the demo's chat room", passed: false, summary: "\(error)", duration: .zero)
                onStep(step)
                return [step]
            }
            let session = Session(networker: Networker(transport: transport), baseURL: server.baseURL)
            let steps = await GRPCTour.Step.run(session.steps(), onStep: onStep)
            await session.leave()
            await server.shutdown()
            return steps
        }

        /// The sockets the steps share.
        final class Session: Sendable {
            let networker: Networker
            let baseURL: String
            private let sockets = Locked<(tour: WebSocket?, ann: WebSocket?)>((nil, nil))
            /// The lines the tour's socket read, in a task of its own.
            private let tourLines = Locked<[Line]>([])
            private let reader = Locked<Task<Void, Never>?>(nil)

            init(networker: Networker, baseURL: String) {
                self.networker = networker
                self.baseURL = baseURL
            }

            func steps() -> [(String, () async throws -> String)] {
                [
                    ("join the room: the handshake is a call, onConnect joins", join),
                    ("send a line, read it back as a model", echo),
                    ("read another member's line", anotherMember),
                    ("survive a dropped connection: reconnect, join again", drop),
                    ("leave with a clean close", leave),
                ]
            }

            private var tour: WebSocket { get throws { try sockets.withLock { $0.tour }.orThrow("not joined") } }

            /// Opens the tour's socket, reconnecting after a drop and joining on every connection.
            private func join() async throws -> String {
                var configuration = WebSocketConfiguration()
                configuration.reconnection = WebSocketReconnection(
                    policy: ReconnectionPolicy(
                        reconnectionTime: .milliseconds(50), jitter: false, maximumReconnections: 3, budget: .unlimited)
                ) { socket in
                    try await socket.send(text: "/join")
                }
                let socket = try await networker.webSocket(
                    RequestDescription(route: baseURL + "/chat?name=tour"), configuration: configuration)
                sockets.withLock { $0.tour = socket }
                let lines = tourLines
                reader.withLock {
                    $0 = Task {
                        do {
                            for try await line in socket.messages.decoding(Line.self) {
                                lines.withLock { $0.append(line) }
                            }
                        } catch {}
                    }
                }
                try await expect(Line(from: "room", text: "tour joined"))
                return "\(socket.handshake.status.code), joined, \(socket.connections) connection"
            }

            private func echo() async throws -> String {
                try await tour.send(text: "hello, room")
                try await expect(Line(from: "tour", text: "hello, room"))
                return "read back: tour: hello, room"
            }

            private func anotherMember() async throws -> String {
                let ann = try await networker.webSocket(RequestDescription(route: baseURL + "/chat?name=ann"))
                sockets.withLock { $0.ann = ann }
                try await ann.send(text: "/join")
                try await expect(Line(from: "room", text: "ann joined"))
                try await ann.send(text: "hi tour")
                try await expect(Line(from: "ann", text: "hi tour"))
                return "ann: hi tour"
            }

            private func drop() async throws -> String {
                let socket = try tour
                try await socket.send(text: "/drop")
                try await expect(Line(from: "room", text: "tour joined"), after: Line(from: "ann", text: "hi tour"))
                guard socket.connections == 2 else { throw TourFailure("\(socket.connections) connections, not 2") }
                return "dropped, reconnected and joined again: \(socket.connections) connections"
            }

            private func leave() async throws -> String {
                let socket = try tour
                await socket.close(code: .normalClosure, reason: "bye")
                guard socket.closure == WebSocketClosure(code: .normalClosure, reason: "bye", byPeer: false) else {
                    throw TourFailure("closed as \(String(describing: socket.closure))")
                }
                let ann = try sockets.withLock { $0.ann }.orThrow("ann is not in the room")
                var seen: [String] = []
                for try await line in ann.messages.decoding(Line.self) {
                    seen.append(line.description)
                    if seen.count == 5 { break }
                }
                let expected = [
                    "room: ann joined", "ann: hi tour", "room: tour left", "room: tour joined", "room: tour left",
                ]
                guard seen == expected else { throw TourFailure("ann saw \(seen)") }
                await ann.close()
                return "\(socket.closure.map { "\($0)" } ?? "-"); ann saw: \(seen.joined(separator: " · "))"
            }

            /// Waits (at most 5 s) until the tour's socket read `line` (after `earlier`, if given).
            private func expect(_ line: Line, after earlier: Line? = nil) async throws {
                let deadline = ContinuousClock.now + .seconds(5)
                while ContinuousClock.now < deadline {
                    let lines = tourLines.withLock { $0 }
                    let start = earlier.flatMap { lines.lastIndex(of: $0) }.map { $0 + 1 } ?? 0
                    if lines[start...].contains(line) { return }
                    try await Deadline.sleep(for: .milliseconds(10))
                }
                throw TourFailure("no \"\(line)\" within 5 s; read \(tourLines.withLock { $0 })")
            }

            /// Stops reading and closes what is still open.
            func leave() async {
                reader.withLock { $0 }?.cancel()
                let (tour, ann) = sockets.withLock { $0 }
                await tour?.close()
                await ann?.close()
            }
        }
    }

    /// A step that did not behave as expected, and why.
    struct TourFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    extension Optional {
        /// The value, or a ``TourFailure`` saying `why` there is none.
        fileprivate func orThrow(_ why: String) throws -> Wrapped {
            guard let self else { throw TourFailure(why) }
            return self
        }
    }
#endif
