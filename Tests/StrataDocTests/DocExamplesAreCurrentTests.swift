import Foundation
import Testing

/// Keeps `DocExamples.swift` in step with the docs: every ```swift example of a `///`
/// comment under Sources/, of a DocC article and of README.md must appear in it verbatim, under its own
/// `doc-example:` marker, and nothing else may. The extraction rules are those of
/// `scripts/doc-examples.py`, which writes the file.
@Suite struct DocExamplesAreCurrentTests {
    @Test func everyExampleIsCompiledVerbatim() throws {
        let root = DocExampleSource.packageRoot
        let expected = try DocExampleSource.examples(in: root)
        let generated = try DocExampleSource.generatedExamples(
            in: String(contentsOf: root.appending(path: "Tests/StrataDocTests/DocExamples.swift"), encoding: .utf8))
        let hint = "run python3 scripts/doc-examples.py"

        for (key, lines) in expected.sorted(by: { $0.key < $1.key }) {
            guard let compiled = generated[key] else {
                Issue.record("\(key) is not in DocExamples.swift: \(hint)")
                continue
            }
            #expect(compiled == lines, "\(key) differs from DocExamples.swift: \(hint)")
        }
        for key in Set(generated.keys).subtracting(expected.keys).sorted() {
            Issue.record("DocExamples.swift holds \(key), which the docs no longer have: \(hint)")
        }
        #expect(generated.count == expected.count, "\(hint)")
        // The tree holds dozens of examples: an empty extraction means the rules broke.
        #expect(expected.count >= 40)
    }

    @Test func extractionFollowsTheRules() {
        let readme = """
            # Title
            ```sh
            # not a heading
            ```
            ## Quick start
            ```swift
            import Foundation  // hoisted

            let a = 1
            ```
            <!-- doc-examples: skip (a fragment) -->
            ```swift
            .package(path: "x")
            ```
            ```swift
            let b = 2
            ```
            """
        #expect(
            DocExampleSource.readmeExamples(readme) == [
                "README.md#quick-start": ["let a = 1"],
                "README.md#quick-start-3": ["let b = 2"],
            ])
        let article = """
            # Caching
            ## Overview
            ```swift
            let c = 3
            ```
            """
        #expect(
            DocExampleSource.markdownExamples(article, path: "Sources/A/Documentation.docc/Caching.md") == [
                "Sources/A/Documentation.docc/Caching.md#overview": ["let c = 3"]
            ])
        let source = """
                /// Text.
                ///
                /// ```swift
                /// let x = 1
                ///
                ///     x + 1
                /// ```
            """
        #expect(
            DocExampleSource.docCommentExamples(source, path: "Sources/A/B.swift") == [
                "Sources/A/B.swift#1": ["let x = 1", "", "    x + 1"]
            ])
    }
}

/// The examples of the docs, extracted as `scripts/doc-examples.py` extracts them.
enum DocExampleSource {
    /// The package's root folder, three levels above this file.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every example of Sources/**.swift, the DocC articles (Sources/*/Documentation.docc/**.md)
    /// and README.md, by key (`path#n`, `README.md#section`, `Sources/…/Caching.md#section`).
    static func examples(in root: URL) throws -> [String: [String]] {
        var examples: [String: [String]] = [:]
        let sources = root.appending(path: "Sources")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        for file in files {
            let path = "Sources/" + file.path.dropFirst(sources.path.count + 1)
            if file.pathExtension == "swift" {
                examples.merge(docCommentExamples(try String(contentsOf: file, encoding: .utf8), path: path)) {
                    old, _ in old
                }
            } else if file.pathExtension == "md", path.split(separator: "/").dropFirst(2).first == "Documentation.docc"
            {
                examples.merge(markdownExamples(try String(contentsOf: file, encoding: .utf8), path: path)) {
                    old, _ in old
                }
            }
        }
        examples.merge(readmeExamples(try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8))) {
            old, _ in old
        }
        return examples
    }

    /// The ```swift blocks of `///` comments, numbered from 1 in the file.
    static func docCommentExamples(_ text: String, path: String) -> [String: [String]] {
        var examples: [String: [String]] = [:]
        var current: [String]?
        var blocks = 0  // skipped blocks count too, so the keys stay put
        var skipping = false
        var previous = ""
        for line in lines(text) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            defer { previous = trimmed }
            guard var body = current else {
                if trimmed == "/// ```swift" {
                    current = []
                    blocks += 1
                    skipping = previous.hasPrefix("/// <!-- doc-examples: skip (") && previous.hasSuffix(") -->")
                }
                continue
            }
            if trimmed == "/// ```" {
                if !skipping { examples["\(path)#\(blocks)"] = hoistingImports(body) }
                current = nil
            } else if trimmed.hasPrefix("///") {
                var content = line.drop { $0 == " " || $0 == "\t" }.dropFirst(3)
                if content.first == " " { content = content.dropFirst() }
                body.append(String(content))
                current = body
            } else {
                current = nil  // not closed inside its comment: the generator reports it
            }
        }
        return examples
    }

    /// The ```swift blocks of the README not marked `<!-- doc-examples: skip (…) -->`,
    /// keyed by the heading above them (`#slug`, then `#slug-2`, …).
    static func readmeExamples(_ text: String) -> [String: [String]] {
        markdownExamples(text, path: "README.md")
    }

    /// The ```swift blocks of a Markdown file (the README, a DocC article) not marked
    /// `<!-- doc-examples: skip (…) -->`, keyed `path#slug`, then `path#slug-2`, … by the
    /// heading above them.
    static func markdownExamples(_ text: String, path: String) -> [String: [String]] {
        var examples: [String: [String]] = [:]
        var section = "top"
        var counts: [String: Int] = [:]
        var current: (key: String, lines: [String], skipped: Bool)?
        var previous = ""
        for line in lines(text) {
            defer { previous = line }
            guard var block = current else {
                if line.hasPrefix("#") {
                    section = slug(String(line.drop { $0 == "#" }))
                }
                if line.trimmingCharacters(in: .whitespaces) == "```swift", line.hasPrefix("```") {
                    let count = counts[section, default: 0] + 1
                    counts[section] = count
                    let marker = previous.trimmingCharacters(in: .whitespaces)
                    let skipped = marker.hasPrefix("<!-- doc-examples: skip (") && marker.hasSuffix(") -->")
                    current = ("\(path)#" + (count == 1 ? section : "\(section)-\(count)"), [], skipped)
                } else if line.hasPrefix("```") {
                    current = ("", [], true)
                }
                continue
            }
            if line.hasPrefix("```"), line.trimmingCharacters(in: .whitespaces) == "```" {
                if !block.skipped { examples[block.key] = hoistingImports(block.lines) }
                current = nil
            } else {
                block.lines.append(line)
                current = block
            }
        }
        return examples
    }

    /// The examples in the generated file, between `// doc-example: KEY` and
    /// `// end doc-example`, without the indentation of their marker.
    static func generatedExamples(in text: String) -> [String: [String]] {
        var examples: [String: [String]] = [:]
        var current: (key: String, indent: Int, lines: [String])?
        for line in lines(text) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let block = current {
                if trimmed == "// end doc-example" {
                    examples[block.key] = block.lines
                    current = nil
                } else {
                    current?.lines.append(String(line.dropFirst(min(block.indent, line.count))))
                }
            } else if trimmed.hasPrefix("// doc-example: ") {
                let indent = line.prefix { $0 == " " }.count
                current = (String(trimmed.dropFirst("// doc-example: ".count)), indent, [])
            }
        }
        return examples
    }

    /// A heading as a lowercase anchor: `Quick start` is `quick-start`.
    static func slug(_ heading: String) -> String {
        let kept = heading.lowercased().unicodeScalars.filter {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == " " || $0 == "-"
        }
        return String(String.UnicodeScalarView(kept)).split(separator: " ").joined(separator: "-")
    }

    /// The example without its leading `import` lines (the generated file imports the
    /// modules once) and the blank lines after them.
    private static func hoistingImports(_ lines: [String]) -> [String] {
        var lines = lines[...]
        var hoisted = false
        while let first = lines.first, isImport(first) || (hoisted && first.isEmpty) {
            hoisted = true
            lines = lines.dropFirst()
        }
        return Array(lines)
    }

    /// `import Module`, alone on its line but for a `//` comment.
    private static func isImport(_ line: String) -> Bool {
        let code = line.components(separatedBy: "//")[0]
        let module = code.dropFirst("import ".count).trimmingCharacters(in: .whitespaces)
        return code.hasPrefix("import ") && module.first.map { $0.isLetter || $0 == "_" } == true
            && module.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    private static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
