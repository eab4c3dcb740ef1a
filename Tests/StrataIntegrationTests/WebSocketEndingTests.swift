// Compiled where WebSocketTests.swift is: its servers need hummingbird-websocket.
#if WebSocket && canImport(HummingbirdWebSocket)
    import Foundation
    import HTTPTypes
    import Strata
    import StrataAsyncHTTPClient
    import StrataTestSupport
    import Testing

    /// A WebSocket's reads end as a call does once it is open: its clock is the idle
    /// timeout (the call's deadline no longer applies), a cancelled reader ends with the
    /// call's cancellation, and a server that drops the connection without a close frame
    /// is a lost connection while reading, as for any body (the socket's closure says
    /// 1006); each with the handshake's request and response, on time, against servers on 127.0.0.1 (AsyncHTTPClient: URLSession on
    /// Linux opens no WebSockets).
    @Suite("WebSocket reads end as the call does", .isTimed)
    struct WebSocketEndingTests {
        typealias Ending = CallEndingCause
        static let idleTimeout = Duration.milliseconds(300)

        /// Reads `socket`'s messages until they throw, cancelling the reader
        /// ``WaitEndingTests/cancelAfter`` in when `ending` says so.
        static func read(
            _ socket: WebSocket, ending: Ending
        ) async throws -> (messages: [WebSocketMessage], outcome: WaitEndingTests.Outcome) {
            let messages = Locked<[WebSocketMessage]>([])
            let outcome = try await WaitEndingTests.outcome(of: ending) {
                for try await message in socket.messages { messages.withLock { $0.append(message) } }
            }
            return (messages.withLock { $0 }, outcome)
        }

        @Test
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        func theReadsEndAsTheCall() async throws {
            let networker = Networker(
                transport: AsyncHTTPClientTransport(), middleware: [HeadersMiddleware([.authorization: "Bearer fresh"])]
            )
            for ending in Ending.allCases {
                try await AuthenticatingWebSocketServer.with { baseURL, _ in
                    var configuration = WebSocketConfiguration()
                    configuration.idleTimeout = ending == .deadlinePasses ? Self.idleTimeout : nil
                    let path = ending == .serverDrops ? "/drop-first" : "/echo"
                    let socket = try await networker.webSocket(
                        RequestDescription(route: baseURL + path), configuration: configuration)
                    if ending == .serverDrops { try await socket.send(text: "subscribe") }
                    let (messages, outcome) = try await Self.read(socket, ending: ending)
                    let error = outcome.error
                    #expect(error.request?.path == path, "\(ending)")
                    #expect(error.status == .switchingProtocols, "\(ending)")
                    switch ending {
                    case .deadlinePasses:
                        #expect(messages.isEmpty)
                        #expect(error.kind == .webSocket, "\(error)")
                        #expect(error.webSocketError == .idle(timeout: Self.idleTimeout))
                        let elapsed = outcome.elapsed
                        #expect(
                            elapsed >= Self.idleTimeout && elapsed < Self.idleTimeout + Ending.margin,
                            "\(elapsed)")
                    case .taskCancelled:
                        #expect(messages.isEmpty)
                        #expect(error.kind == .cancelled, "\(error)")
                        #expect(error.phase == .readingBody)
                        #expect(outcome.elapsed < Ending.margin, "\(outcome.elapsed)")
                    case .serverDrops:
                        #expect(messages == [.text("one")])
                        #expect(error.kind == .transport, "\(error)")
                        #expect(error.transportError?.kind == .connectionLost, "\(error)")
                        #expect(error.phase == .readingBody, "\(error)")
                        #expect(socket.closure?.code == .abnormalClosure, "\(String(describing: socket.closure))")
                    }
                }
            }
        }
    }
#endif
