import Foundation
import Testing

@testable import Strata
@testable import StrataCore

@Suite struct MultipartFormDataTests {
    private static let boundary = "TestBoundary"

    private func makeForm() throws -> MultipartFormData {
        try MultipartFormData(boundary: Self.boundary)
    }

    private func text(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self)
    }

    private func collect(_ chunks: MultipartFormData.Chunks) async throws -> [Data] {
        var collected: [Data] = []
        for try await chunk in chunks {
            collected.append(chunk)
        }
        return collected
    }

    // MARK: Exact bytes

    @Test func emptyFormIsOnlyTheClosingDelimiter() throws {
        let form = try makeForm()
        #expect(text(try form.encodedData()) == "--TestBoundary--\r\n")
        #expect(form.contentLength == 18)
        #expect(form.isEmpty)
    }

    @Test func oneTextField() throws {
        var form = try makeForm()
        form.append("Ann", name: "user")
        #expect(
            text(try form.encodedData()) == """
                --TestBoundary\r
                Content-Disposition: form-data; name="user"\r
                \r
                Ann\r
                --TestBoundary--\r

                """)
    }

    @Test func severalFieldsKeepTheirOrder() throws {
        var form = try makeForm()
        form.append("Ann", name: "first")
        form.append("", name: "empty")
        form.append("{\"a\":1}", name: "meta", contentType: "application/json")
        let expected =
            "--TestBoundary\r\n"
            + "Content-Disposition: form-data; name=\"first\"\r\n\r\n"
            + "Ann\r\n"
            + "--TestBoundary\r\n"
            + "Content-Disposition: form-data; name=\"empty\"\r\n\r\n"
            + "\r\n"
            + "--TestBoundary\r\n"
            + "Content-Disposition: form-data; name=\"meta\"\r\n"
            + "Content-Type: application/json\r\n\r\n"
            + "{\"a\":1}\r\n"
            + "--TestBoundary--\r\n"
        #expect(text(try form.encodedData()) == expected)
    }

    @Test func dataPartWithFileNameAndType() throws {
        var form = try makeForm()
        form.append(
            Data([0x00, 0xFF, 0x0D, 0x0A]), name: "blob", fileName: "raw.bin", contentType: "application/x-custom")
        form.append(Data("a,b".utf8), name: "table", fileName: "Report.CSV")
        form.append(Data("x".utf8), name: "plain")
        // Appended piece by piece: one long `+` chain of `Data` ran over the type checker's
        // time limit on a loaded machine.
        var expected = Data("--TestBoundary\r\n".utf8)
        expected.append(contentsOf: "Content-Disposition: form-data; name=\"blob\"; filename=\"raw.bin\"\r\n".utf8)
        expected.append(contentsOf: "Content-Type: application/x-custom\r\n\r\n".utf8)
        expected.append(contentsOf: [0x00, 0xFF, 0x0D, 0x0A])
        expected.append(contentsOf: "\r\n--TestBoundary\r\n".utf8)
        expected.append(contentsOf: "Content-Disposition: form-data; name=\"table\"; filename=\"Report.CSV\"\r\n".utf8)
        expected.append(contentsOf: "Content-Type: text/csv\r\n\r\n".utf8)
        expected.append(contentsOf: "a,b\r\n--TestBoundary\r\n".utf8)
        expected.append(contentsOf: "Content-Disposition: form-data; name=\"plain\"\r\n\r\n".utf8)
        expected.append(contentsOf: "x\r\n--TestBoundary--\r\n".utf8)
        #expect(try form.encodedData() == expected)
    }

    @Test func dataSlicesAreEncodedFromTheirOwnBytes() throws {
        let whole = Data("0123456789".utf8)
        var form = try makeForm()
        form.append(whole[3..<6], name: "slice")
        #expect(text(try form.encodedData()).contains("\r\n\r\n345\r\n"))
    }

    @Test func filePartFromATemporaryFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.write("hello file\n", to: "notes.txt")

        var form = try makeForm()
        try form.append(fileAt: url, name: "attachment")
        try form.append(fileAt: url, name: "renamed", fileName: "photo.JPG")
        try form.append(fileAt: url, name: "typed", fileName: "x", contentType: "text/markdown")
        let expected =
            "--TestBoundary\r\n"
            + "Content-Disposition: form-data; name=\"attachment\"; filename=\"notes.txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\n"
            + "hello file\n\r\n"
            + "--TestBoundary\r\n"
            + "Content-Disposition: form-data; name=\"renamed\"; filename=\"photo.JPG\"\r\n"
            + "Content-Type: image/jpeg\r\n\r\n"
            + "hello file\n\r\n"
            + "--TestBoundary\r\n"
            + "Content-Disposition: form-data; name=\"typed\"; filename=\"x\"\r\n"
            + "Content-Type: text/markdown\r\n\r\n"
            + "hello file\n\r\n"
            + "--TestBoundary--\r\n"
        #expect(text(try form.encodedData()) == expected)
    }

    @Test func fileTypesComeFromTheBuiltInTable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let expectations = [
            "a.json": "application/json", "a.png": "image/png", "a.jpeg": "image/jpeg", "a.gif": "image/gif",
            "a.pdf": "application/pdf", "a.html": "text/html", "a.xml": "application/xml",
            "a.zip": "application/zip", "a.mp4": "video/mp4", "a.mp3": "audio/mpeg", "a.webp": "image/webp",
            "a.tar.gz": "application/octet-stream", "noextension": "application/octet-stream",
            ".hidden": "application/octet-stream",
        ]
        for (fileName, type) in expectations {
            var form = try makeForm()
            try form.append(fileAt: try directory.write("", to: fileName), name: "f")
            #expect(text(try form.encodedData()).contains("\r\nContent-Type: \(type)\r\n\r\n"), "\(fileName)")
        }
    }

    @Test func unicodeNamesAndValuesAreUTF8() throws {
        var form = try makeForm()
        form.append("日本語 ✓ 🎉", name: "naïve")
        form.append(Data("x".utf8), name: "файл", fileName: "résumé.pdf")
        let expected =
            "--TestBoundary\r\n"
            + "Content-Disposition: form-data; name=\"naïve\"\r\n\r\n"
            + "日本語 ✓ 🎉\r\n"
            + "--TestBoundary\r\n"
            + "Content-Disposition: form-data; name=\"файл\"; filename=\"résumé.pdf\"\r\n"
            + "Content-Type: application/pdf\r\n\r\n"
            + "x\r\n"
            + "--TestBoundary--\r\n"
        let data = try form.encodedData()
        #expect(data == Data(expected.utf8))
        #expect(form.contentLength == Int64(data.count))
    }

    @Test func quotesAndLineBreaksInNamesAreEscaped() throws {
        var form = try makeForm()
        form.append("v", name: "a\"b\r\nc\rd\ne")
        form.append(Data(), name: "f", fileName: "say \"hi\"\n.txt", contentType: "text/plain\r\nX-Injected: 1")
        let expected =
            "--TestBoundary\r\n"
            + "Content-Disposition: form-data; name=\"a%22b%0D%0Ac%0Dd%0Ae\"\r\n\r\n"
            + "v\r\n"
            + "--TestBoundary\r\n"
            + "Content-Disposition: form-data; name=\"f\"; filename=\"say %22hi%22%0A.txt\"\r\n"
            + "Content-Type: text/plainX-Injected: 1\r\n\r\n"
            + "\r\n"
            + "--TestBoundary--\r\n"
        #expect(text(try form.encodedData()) == expected)
    }

    // MARK: Headers and length

    @Test func contentTypeNamesTheBoundary() throws {
        #expect(try makeForm().contentType == "multipart/form-data; boundary=TestBoundary")
        #expect(try MultipartFormData(boundary: "a:b c").contentType == "multipart/form-data; boundary=\"a:b c\"")
        let random = MultipartFormData()
        #expect(random.contentType == "multipart/form-data; boundary=\(random.boundary)")
    }

    @Test func randomBoundariesAreValidAndDistinct() {
        let first = MultipartFormData.randomBoundary()
        let second = MultipartFormData.randomBoundary()
        #expect(first != second)
        #expect(first.hasPrefix("strata.boundary."))
        #expect(first.count == 32)
        #expect(MultipartFormData.isValidBoundary(first))
    }

    @Test func contentLengthMatchesTheEncodedBytes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.write(String(repeating: "z", count: 12_345), to: "big.dat")
        var form = try makeForm()
        form.append("é", name: "ü")
        form.append(Data(count: 77), name: "d", fileName: "d.bin")
        try form.append(fileAt: url, name: "file")
        let data = try form.encodedData()
        #expect(form.contentLength == Int64(data.count))
    }

    // MARK: Streaming

    @Test func tinyChunksConcatenateToTheEncodedBody() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = Data((0..<200 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
        let url = directory.url.appendingPathComponent("large.bin")
        try bytes.write(to: url)

        var form = try makeForm()
        form.append("before", name: "a")
        try form.append(fileAt: url, name: "large")
        form.append(Data(), name: "empty", fileName: "empty.bin")
        form.append("after", name: "b")
        let expected = try form.encodedData()
        #expect(expected.range(of: bytes) != nil)
        #expect(form.contentLength == Int64(expected.count))

        for chunkSize in [7, 4096, 64 * 1024, 10_000_000] {
            let chunks = try await collect(form.makeChunks(chunkSize: chunkSize))
            #expect(chunks.reduce(into: Data()) { $0.append($1) } == expected, "chunk size \(chunkSize)")
            #expect(chunks.dropLast().allSatisfy { $0.count == chunkSize })
            #expect(chunks.last.map { (1...chunkSize).contains($0.count) } == true)
        }
        let defaultChunks = try await collect(form.makeChunks())
        #expect(defaultChunks.count == 4)
        #expect(defaultChunks.reduce(into: Data()) { $0.append($1) } == expected)
    }

    @Test func nonPositiveChunkSizesCountAsOne() async throws {
        var form = try makeForm()
        form.append("x", name: "y")
        let chunks = try await collect(form.makeChunks(chunkSize: 0))
        #expect(chunks.allSatisfy { $0.count == 1 })
        #expect(chunks.reduce(into: Data()) { $0.append($1) } == (try form.encodedData()))
    }

    @Test func theStreamCanBeConsumedTwice() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.write(String(repeating: "0123456789", count: 1000), to: "digits.txt")
        var form = try makeForm()
        try form.append(fileAt: url, name: "digits")
        let chunks = form.makeChunks(chunkSize: 333)

        var first = chunks.makeAsyncIterator()
        var second = chunks.makeAsyncIterator()
        let firstHead = try await first.next()
        let secondHead = try await second.next()
        #expect(firstHead == secondHead)

        let whole = try await collect(chunks).reduce(into: Data()) { $0.append($1) }
        let again = try await collect(chunks).reduce(into: Data()) { $0.append($1) }
        #expect(whole == again)
        #expect(whole == (try form.encodedData()))
    }

    // MARK: Errors

    @Test func missingFilesAndDirectoriesAreRejectedOnAppend() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.url.appendingPathComponent("missing.txt")
        var form = try makeForm()
        #expect(throws: MultipartError.fileNotFound(missing)) {
            try form.append(fileAt: missing, name: "f")
        }
        #expect(throws: MultipartError.notARegularFile(directory.url)) {
            try form.append(fileAt: directory.url, name: "f")
        }
        #expect(form.isEmpty)
    }

    @Test func symbolicLinksToFilesAreFollowed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = try directory.write("linked", to: "target.txt")
        let link = directory.url.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        var form = try makeForm()
        try form.append(fileAt: link, name: "f")
        #expect(
            text(try form.encodedData()).contains("filename=\"link.txt\"\r\nContent-Type: text/plain\r\n\r\nlinked\r\n")
        )
    }

    @Test func aFileTruncatedAfterAppendFailsTheStream() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.write(String(repeating: "a", count: 1000), to: "shrinks.txt")
        var form = try makeForm()
        try form.append(fileAt: url, name: "f")
        try Data("short".utf8).write(to: url)

        await #expect(throws: MultipartError.fileChanged(url, expected: 1000, actual: 5)) {
            _ = try await collect(form.makeChunks(chunkSize: 7))
        }
        #expect(throws: MultipartError.fileChanged(url, expected: 1000, actual: 5)) {
            _ = try form.encodedData()
        }
        try FileManager.default.removeItem(at: url)
        await #expect(throws: MultipartError.fileNotFound(url)) {
            _ = try await collect(form.makeChunks())
        }
    }

    @Test func aFileThatChangesWhileStreamingFailsTheStream() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.write(String(repeating: "a", count: 1000), to: "changes.txt")
        var form = try makeForm()
        try form.append(fileAt: url, name: "f")

        // Truncated after reading has started: the file ends early.
        var iterator = form.makeChunks(chunkSize: 200).makeAsyncIterator()
        _ = try await iterator.next()
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 0)
        try handle.close()
        let error = await #expect(throws: MultipartError.self) {
            while try await iterator.next() != nil {}
        }
        if case .fileChanged(_, let expected, _) = error {
            #expect(expected == 1000)
        } else {
            Issue.record("unexpected error \(String(describing: error))")
        }
        #expect(try await iterator.next() == nil)

        // Grown after reading has started: the file does not end where announced.
        try Data(repeating: 0x61, count: 1000).write(to: url)
        var growing = form.makeChunks(chunkSize: 200).makeAsyncIterator()
        _ = try await growing.next()
        let appender = try FileHandle(forWritingTo: url)
        try appender.seekToEnd()
        try appender.write(contentsOf: Data("more".utf8))
        try appender.close()
        await #expect(throws: MultipartError.fileChanged(url, expected: 1000, actual: 1004)) {
            while try await growing.next() != nil {}
        }
    }

    @Test func invalidBoundariesAreRejected() {
        let tooLong = String(repeating: "b", count: 71)
        for boundary in ["", tooLong, "semi;colon", "quote\"", "tab\there", "trailing ", "ümlaut", "new\nline"] {
            #expect(!MultipartFormData.isValidBoundary(boundary), "\(boundary)")
            #expect(throws: MultipartError.invalidBoundary(boundary)) {
                try MultipartFormData(boundary: boundary)
            }
        }
        for boundary in [String(repeating: "b", count: 70), "x", "'()+_,-./:=?", "inner space"] {
            #expect(MultipartFormData.isValidBoundary(boundary), "\(boundary)")
        }
    }

    @Test func errorsDescribeThemselves() {
        let url = URL(fileURLWithPath: "/tmp/x.txt")
        #expect(MultipartError.invalidBoundary("").description.contains("must not be empty"))
        #expect(MultipartError.invalidBoundary("a;b").description.contains("\";\" is not allowed"))
        #expect(MultipartError.invalidBoundary("a ").description.contains("end with a space"))
        #expect(MultipartError.fileNotFound(url).description == "multipart file not found: /tmp/x.txt")
        #expect(MultipartError.fileChanged(url, expected: 3, actual: 1).description.contains("had 3 bytes, now has 1"))
    }
}

/// A uniquely named directory under the system's temporary directory.
private struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-multipart-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `contents` as UTF-8 to a file named `name` and returns its URL.
    func write(_ contents: String, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(contents.utf8).write(to: file)
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
