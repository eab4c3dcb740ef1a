import Foundation
import HTTPTypes
import PropertyBased
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// `Location` values are server data: any text must be followed to an `http(s)` URL or
/// refused with a ``RedirectError``, never crash.
@Suite(.runsAlone) struct RedirectPropertyTests {
    /// Locations: random text, and URL-shaped text with random parts.
    static let locations = Generator<String, Shrink.None<String>> { rng in
        var parts = (0..<4).map { _ in PropertyGen.string(length: 0...12, using: &rng) }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return parts[0]
        case 1: return "/" + parts[0]
        case 2:
            return ["http://", "https://", "//", "HTTP://", "ftp://", "http:"].randomElement(using: &rng)! + parts[0]
        default:
            parts.shuffle(using: &rng)
            return "http://" + parts[0] + ":" + parts[1] + "/" + parts[2] + "?" + parts[3]
        }
    }

    @Test func anyLocationIsFollowedOrRefused() async {
        await propertyCheck(count: 2000, input: Self.locations) { location in
            let start = HTTPRequest(
                method: .post, scheme: "https", authority: "a.test", path: "/start",
                headerFields: [.authorization: "Bearer t"])
            var hop = RedirectHopState(request: start, body: MessageBody("x"))
            do {
                try hop.follow(
                    .init(code: 307), to: location, redirects: 0, policy: RedirectPolicy(allowsInsecureRedirects: true))
                let scheme = hop.request.scheme?.lowercased()
                #expect(
                    scheme == "http" || scheme == "https",
                    "\(location.debugDescription) → \(hop.request.absoluteURLString)")
                #expect(hop.request.authority?.isEmpty == false, "\(location.debugDescription)")
                #expect(hop.request.method == .post)
                #expect(hop.request.headerFields[.authorization] == (hop.hasLeftOrigin ? nil : "Bearer t"))
            } catch let error as RedirectError {
                #expect(
                    [RedirectError.Kind.invalidLocation, .loop].contains(error.kind),
                    "\(location.debugDescription): \(error)")
            } catch {
                Issue.record("\(location.debugDescription): unexpected \(error)")
            }
        }
    }
}
