import Foundation
import Strata
import Testing

@testable import StrataSQLiteCache

/// The cookie jar that lasts across launches: what a reopened jar holds, and files it
/// cannot read.
@Suite struct SQLiteCookieJarTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let site = URL(string: "https://example.com/account")!

    static func jar(_ path: String, at date: Date = now, keepsSessionCookies: Bool = false) throws -> SQLiteCookieJar {
        try SQLiteCookieJar(path: path, keepsSessionCookies: keepsSessionCookies, now: { date })
    }

    @Test func persistentCookiesOutliveTheJarAndSessionCookiesEndWithIt() throws {
        let path = try SQLiteCacheStoreTests.temporaryPath()
        do {
            let jar = try Self.jar(path)
            jar.receive(
                ["session=s; Path=/", "remember=r; Max-Age=3600; Path=/", "prefs=p; Max-Age=60; Path=/account"],
                from: Self.site)
            #expect(CookieStorage.headerValue(for: jar.cookies(for: Self.site)) == "prefs=p; session=s; remember=r")
        }
        let reopened = try Self.jar(path, at: Self.now.addingTimeInterval(120))
        #expect(reopened.recoveredFile == nil)
        #expect(reopened.allCookies.map(\.name) == ["remember"])  // the session one ended, prefs expired
        #expect(CookieStorage.headerValue(for: reopened.cookies(for: Self.site)) == "remember=r")
        let keeping = try Self.jar(path, keepsSessionCookies: true)
        #expect(keeping.allCookies.map(\.name).sorted() == ["remember"])  // the expired and ended rows were deleted
    }

    @Test func changesAreWrittenAsTheyHappen() throws {
        let path = try SQLiteCacheStoreTests.temporaryPath()
        let jar = try Self.jar(path)
        jar.receive(["a=1; Max-Age=600", "b=2; Max-Age=600"], from: Self.site)
        jar.add(Cookie(name: "c", value: "3", domain: "example.com", expires: Self.now.addingTimeInterval(600)))
        jar.receive(["a=updated; Max-Age=600"], from: Self.site)
        jar.removeAll { $0.name == "b" }
        let copy = try Self.jar(path, keepsSessionCookies: true)
        #expect(
            Dictionary(uniqueKeysWithValues: copy.allCookies.map { ($0.name, $0.value) }) == ["a": "updated", "c": "3"])
        jar.removeAll()  // log out
        #expect(try Self.jar(path).allCookies.isEmpty)
    }

    @Test(arguments: [Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }), Data("SQLite format 3".utf8)])
    func aFileThatIsNoCookieJarIsMovedAsideAndANewJarMade(contents: Data) throws {
        let path = try SQLiteCacheStoreTests.temporaryPath()
        try contents.write(to: URL(fileURLWithPath: path))
        let jar = try Self.jar(path)
        let aside = try #require(jar.recoveredFile)
        #expect(FileManager.default.contents(atPath: aside) == contents)
        jar.receive(["a=1; Max-Age=60"], from: Self.site)
        #expect(try Self.jar(path).allCookies.map(\.name) == ["a"])
    }

    @Test func aCacheDatabaseIsNotTakenForAJar() async throws {
        let path = try SQLiteCacheStoreTests.temporaryPath()
        _ = try SQLiteCacheStore(path: path)
        let jar = try Self.jar(path)
        #expect(jar.recoveredFile != nil)
        #expect(jar.allCookies.isEmpty)
    }
}
