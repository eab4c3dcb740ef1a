import Foundation
import PropertyBased
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// ``MultipartFormData`` fed random field names, file names, content types, data and
/// boundaries.
@Suite(.runsAlone) struct MultipartPropertyTests {
    /// One part a caller might append.
    struct PartInput: Sendable, CustomStringConvertible {
        let name: String
        let fileName: String?
        let contentType: String?
        let data: Data
        var description: String {
            "name: \(name.debugDescription), fileName: \(fileName.debugDescription), contentType: \(contentType.debugDescription), data: \(data.count) bytes"
        }
    }

    static let parts = Generator<[PartInput], Shrink.None<[PartInput]>> { rng in
        (0..<Int.random(in: 0...4, using: &rng)).map { _ in
            PartInput(
                name: PropertyGen.string(length: 0...10, using: &rng),
                fileName: Bool.random(using: &rng)
                    ? PropertyGen.string(length: 0...10, using: &rng) + [".png", ".JSON", "", "."].randomElement(
                        using: &rng)! : nil,
                contentType: Bool.random(using: &rng) ? PropertyGen.string(length: 0...10, using: &rng) : nil,
                data: PropertyGen.bytes.run(using: &rng))
        }
    }

    /// `value` as it must appear between the quotes of a header parameter.
    static func quoted(_ value: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": scalars.append(contentsOf: "%22".unicodeScalars)
            case "\r": scalars.append(contentsOf: "%0D".unicodeScalars)
            case "\n": scalars.append(contentsOf: "%0A".unicodeScalars)
            default: scalars.append(scalar)
            }
        }
        return "\"" + String(scalars) + "\""
    }

    @Test func headerLinesHoldNoCallerLineBreaksAndBodiesAreExact() async throws {
        await propertyCheck(count: 500, input: Self.parts, Gen.int(in: 1...97)) { inputs, chunkSize in
            var form = MultipartFormData()
            for input in inputs {
                if let fileName = input.fileName {
                    form.append(input.data, name: input.name, fileName: fileName, contentType: input.contentType)
                } else if let text = String(validUTF8: input.data), input.data.count % 2 == 0 {
                    form.append(text, name: input.name, contentType: input.contentType)
                } else {
                    form.append(input.data, name: input.name, contentType: input.contentType)
                }
            }
            let body = try form.encodedData()
            #expect(Int64(body.count) == form.contentLength)
            var chunked = Data()
            for try await chunk in form.makeChunks(chunkSize: chunkSize) {
                #expect(chunk.count <= chunkSize)
                chunked.append(chunk)
            }
            #expect(chunked == body)

            // Walk the body: delimiter, header lines, blank line, data, CRLF; then the close.
            let bytes = [UInt8](body)
            var offset = 0
            func take(_ expected: [UInt8]) -> Bool {
                guard bytes.count - offset >= expected.count, Array(bytes[offset..<offset + expected.count]) == expected
                else { return false }
                offset += expected.count
                return true
            }
            let crlf = Array("\r\n".utf8)
            for input in inputs {
                #expect(take(Array("--\(form.boundary)\r\n".utf8)))
                // Header lines end at the first CRLF: no caller text can break them.
                var lines: [String] = []
                while offset < bytes.count, !take(crlf) {
                    guard
                        let end = (offset..<bytes.count - 1).first(where: { bytes[$0] == 0x0D && bytes[$0 + 1] == 0x0A }
                        )
                    else { break }
                    let line = Array(bytes[offset..<end])
                    #expect(!line.contains(0x0D) && !line.contains(0x0A))
                    lines.append(String(decoding: line, as: UTF8.self))
                    offset = end + 2
                }
                var disposition = "Content-Disposition: form-data; name=" + Self.quoted(input.name)
                if let fileName = input.fileName { disposition += "; filename=" + Self.quoted(fileName) }
                #expect(lines.first == disposition)
                let type =
                    input.contentType.map {
                        String(String.UnicodeScalarView($0.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
                    }
                    ?? input.fileName.map { MultipartMediaTypes.type(forFileName: $0) ?? "application/octet-stream" }
                #expect(lines.dropFirst().first == type.map { "Content-Type: " + $0 })
                #expect(lines.count == (type == nil ? 1 : 2))
                #expect(take([UInt8](input.data)))
                #expect(take(crlf))
            }
            #expect(take(Array("--\(form.boundary)--\r\n".utf8)))
            #expect(offset == bytes.count)
        }
    }

    @Test func boundariesAreAcceptedExactlyWhenValid() async throws {
        let bchars = Array("abcXYZ019'()+_,-./:=? ".unicodeScalars)
        let boundaries = Generator<String, Shrink.None<String>> { rng in
            if Bool.random(using: &rng) { return PropertyGen.string(length: 0...80, using: &rng) }
            return String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 0...75, using: &rng)).map { _ in
                        Int.random(in: 0..<20, using: &rng) == 0
                            ? PropertyGen.anyScalar(using: &rng) : bchars.randomElement(using: &rng)!
                    }))
        }
        await propertyCheck(count: 800, input: boundaries) { boundary in
            let scalars = Array(boundary.unicodeScalars)
            let valid =
                (1...70).contains(scalars.count) && scalars.last != " "
                && scalars.allSatisfy {
                    bchars.contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0)
                        || ("0"..."9").contains($0)
                }
            #expect(MultipartFormData.isValidBoundary(boundary) == valid)
            do {
                let form = try MultipartFormData(boundary: boundary)
                #expect(valid)
                #expect(form.boundary == boundary)
                let needsQuotes = boundary.unicodeScalars.contains { "()<>@,;:\\\"/[]?= ".unicodeScalars.contains($0) }
                #expect(
                    form.contentType == "multipart/form-data; boundary=" + (needsQuotes ? "\"\(boundary)\"" : boundary))
                #expect(try form.encodedData() == Data("--\(boundary)--\r\n".utf8))
            } catch {
                #expect(!valid)
                #expect(error as? MultipartError == .invalidBoundary(boundary))
            }
        }
    }
}
