#if WebSocket
    import HTTPTypes
    import PropertyBased
    import Strata
    import StrataTestSupport
    import Testing

    @testable import StrataAsyncHTTPClient

    /// Where a handshake goes, read from the caller's request: exact cases, and random
    /// schemes, authorities and paths that never crash and either give a target or a
    /// ``TransportError`` of kind ``TransportError/Kind/invalidRequest``.
    @Suite struct WebSocketTargetTests {
        static func target(_ scheme: String?, _ authority: String?, _ path: String? = "/") throws -> [String] {
            let target = try WebSocketTarget(
                HTTPRequest(method: .get, scheme: scheme, authority: authority, path: path))
            return [target.host, "\(target.port)", "\(target.usesTLS)", target.requestTarget, target.hostField]
        }

        @Test func exactTargets() throws {
            #expect(
                try Self.target("ws", "example.com", "/chat?room=7") == [
                    "example.com", "80", "false", "/chat?room=7", "example.com",
                ])
            #expect(
                try Self.target("wss", "example.com:8443", "") == [
                    "example.com", "8443", "true", "/", "example.com:8443",
                ])
            #expect(
                try Self.target("HTTPS", "user:pw@example.com", nil) == [
                    "example.com", "443", "true", "/", "example.com",
                ])
            #expect(try Self.target("http", "[::1]:9000") == ["::1", "9000", "false", "/", "[::1]:9000"])
            #expect(try Self.target("ws", "[::1]") == ["::1", "80", "false", "/", "[::1]"])
            #expect(throws: TransportError.self) { try Self.target("ws", "example.com", "/a b") }
            #expect(throws: TransportError.self) { try Self.target("ws", "example.com", "/é") }
            for (scheme, authority) in [
                ("ftp", "example.com"), (nil, "example.com"), ("ws", ""), ("ws", nil),
                ("ws", "example.com:0"), ("ws", "example.com:65536"), ("ws", "example.com:x"), ("ws", "[::1"),
                ("ws", "[::1]x"), ("ws", ":80"),
            ] as [(String?, String?)] {
                #expect(throws: TransportError.self, "\(String(describing: scheme)) \(String(describing: authority))") {
                    try Self.target(scheme, authority)
                }
            }
        }

        @Test func randomRequestsGiveATargetOrATypedError() async {
            let pieces = Generator<(String, String, String), Shrink.None<(String, String, String)>> { rng in
                /// Random text leaning on the characters an authority is made of.
                func text(_ length: ClosedRange<Int>) -> String {
                    let alphabet = Array("aZ09.-_:@[]/%?#é \u{0}\u{7F}\u{1F600}")
                    return String(
                        (0..<Int.random(in: length, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
                }
                let scheme =
                    ["ws", "wss", "http", "https", "WS", "ftp", text(0...4)].randomElement(using: &rng) ?? "ws"
                return (scheme, text(0...24), text(0...12))
            }
            await propertyCheck(count: 2000, input: pieces) { scheme, authority, path in
                let request = HTTPRequest(method: .get, scheme: scheme, authority: authority, path: path)
                do {
                    let target = try WebSocketTarget(request)
                    let sent = request.path ?? ""
                    #expect(!target.host.isEmpty)
                    #expect((1...65535).contains(target.port))
                    #expect(sent.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) })
                    #expect(target.requestTarget == (sent.isEmpty ? "/" : sent), "\(scheme) \(authority) \(path)")
                } catch {
                    #expect((error as? TransportError)?.kind == .invalidRequest)
                }
            }
        }
    }
#endif
