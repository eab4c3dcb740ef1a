import PropertyBased
import Testing

@testable import Strata
@testable import StrataCore

/// Proxy URLs and `NO_PROXY` lists come from the environment and from users: any text is
/// read or refused with a typed error that never repeats the password, never a crash.
@Suite struct ProxyPropertyTests {
    static let pieces = [
        "http://", "socks5://", "socks5h://", "https://", "://", "@", ":", "::", "[", "]", "/", "%", "%4", "%41",
        "*", ".", ",", " ", "localhost", "10.0.0.0", "/8", "/33", "99999", "1080", "é", "\u{0}",
    ]
    static let texts = Generator<String, Shrink.None<String>> { rng in
        if Bool.random(using: &rng) { return PropertyGen.string(length: 0...40, using: &rng) }
        return (0..<Int.random(in: 0...10, using: &rng)).map { _ in
            Bool.random(using: &rng)
                ? pieces.randomElement(using: &rng)! : PropertyGen.string(length: 0...6, using: &rng)
        }.joined()
    }

    @Test func anyProxyURLIsReadOrRefusedWithoutItsPassword() async {
        await propertyCheck(count: 3000, input: Self.texts) { text in
            let url = "http://user:SECRET-\(text.hashValue)@" + text
            do throws(ProxyConfigurationError) {
                let server = try ProxySettings.Server(url: url)
                #expect((1...65535).contains(server.port), "\(url)")
                #expect(!server.description.contains("SECRET"), "\(url)")
            } catch {
                #expect(!error.description.contains("SECRET"), "\(url)")
            }
        }
    }

    @Test func anyNoProxyListIsReadOrRefusedAndItsEntriesMatchTheirOwnHost() async {
        await propertyCheck(count: 3000, input: Self.texts) { text in
            let entries = (try? ProxySettings.Bypass.list(text)) ?? []
            for entry in entries {
                _ = entry.matches(host: text)
                #expect(!entry.hostPatterns.isEmpty, "\(text)")
            }
            let settings = try? ProxySettings.fromEnvironment(["http_proxy": "proxy:3128", "no_proxy": text])
            #expect(settings?.http?.description == "http://proxy:3128", "\(text)")
        }
    }
}
