import Foundation
import HTTPTypes
import PropertyBased
import Testing

@testable import Strata
@testable import StrataCore

/// `Link` values (RFC 8288) are server data: exact readings of the forms servers send, and
/// any text read without a trap.
@Suite struct WebLinkTests {
    @Test func severalLinksWithQuotedParameters() {
        let value =
            #"<https://api.example.com/items?page=2>; rel="next"; title="next, \"page\"; two", "#
            + #"</items?page=1>;rel=first, <?page=9> ; REL="Last  End" ; Title=x ; title=y"#
        #expect(
            WebLink.links(in: value) == [
                WebLink(
                    target: "https://api.example.com/items?page=2", relations: ["next"],
                    parameters: ["rel": "next", "title": #"next, "page"; two"#]),
                WebLink(target: "/items?page=1", relations: ["first"], parameters: ["rel": "first"]),
                WebLink(
                    target: "?page=9", relations: ["last", "end"], parameters: ["rel": "Last  End", "title": "x"]),
            ])
    }

    @Test func targetsResolveAgainstTheRequest() {
        let base = URL(string: "https://api.example.com/v1/items?page=1")
        let links = WebLink.links(in: "<https://other.example/x>, </root>, <next?page=2>, <?page=3>")
        #expect(
            links.map { $0.url(relativeTo: base)?.absoluteString } == [
                "https://other.example/x", "https://api.example.com/root", "https://api.example.com/v1/next?page=2",
                "https://api.example.com/v1/items?page=3",
            ])
    }

    @Test func malformedLinkValuesAreSkipped() {
        #expect(WebLink.links(in: "") == [])
        #expect(
            WebLink.links(in: "no brackets; rel=next, <ok>; rel=next") == [
                WebLink(
                    target: "ok", relations: ["next"], parameters: ["rel": "next"])
            ])
        #expect(WebLink.links(in: #"<a>; title="unterminated, <b>; rel=next"#).map(\.target) == ["a"])
        #expect(WebLink.links(in: "<never closed; rel=next") == [])
        #expect(WebLink.links(in: "<a,b>; rel=next").map(\.target) == ["a,b"])
        #expect(WebLink.links(in: "<a>; ; rel ; =x").first?.parameters == ["rel": ""])
    }

    @Test func everyLinkFieldCounts() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .link, value: "<a>; rel=prev"))
        fields.append(HTTPField(name: .link, value: "<b>; rel=next, <c>; rel=last"))
        #expect(WebLink.links(in: fields).map(\.target) == ["a", "b", "c"])
    }

    /// Any text gives links without a trap, and a list built of links reads back as built.
    @Test func anyTextIsRead() async {
        await propertyCheck(count: 2000, input: PropertyGen.unicodeString(length: 0...60)) { text in
            for link in WebLink.links(in: text) {
                #expect(link.target.isEmpty || text.contains(link.target))
                _ = link.url(relativeTo: URL(string: "https://api.example.com/a/b"))
            }
        }
        let tokens = Generator<[String], Shrink.None<[String]>> { rng in
            (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                String(String.UnicodeScalarView(PropertyGen.token(using: &rng).filter { $0 != ">" }))
            }
        }
        await propertyCheck(count: 500, input: tokens) { targets in
            func quoted(_ text: String) -> String {
                text.replacingOccurrences(of: #"\"#, with: #"\\"#).replacingOccurrences(of: #"""#, with: #"\""#)
            }
            let value = targets.enumerated()
                .map { #"<\#($1)>; rel="r\#($0) x"; title="\#(quoted($1)), \"q\"""# }
                .joined(separator: ", ")
            let links = WebLink.links(in: value)
            #expect(links.map(\.target) == targets, "\(value)")
            #expect(links.map(\.relations) == targets.indices.map { ["r\($0)", "x"] })
            #expect(links.map { $0.parameters["title"] } == targets.map { #"\#($0), "q""# })
        }
    }
}
