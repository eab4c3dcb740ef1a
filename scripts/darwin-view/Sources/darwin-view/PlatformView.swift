import SwiftIfConfig
import SwiftParser
import SwiftSyntax

/// A source file as one platform's compiler reads it: every `#if` directive and every
/// inactive clause blanked out (newlines kept, so that a diagnostic's line and column are
/// the original file's), and the active clauses left in place.
struct PlatformView {
    /// The file's text under the configuration.
    let text: String
    /// The modules the view imports, in order.
    let imports: [String]

    init(source: String, configuration: PlatformConfiguration) {
        let tree = Parser.parse(source: source)
        var bytes = Array(source.utf8)
        let collector = IfConfigCollector(viewMode: .sourceAccurate)
        collector.walk(tree)
        for decl in collector.decls {
            let start = decl.positionAfterSkippingLeadingTrivia.utf8Offset
            let end = decl.endPositionBeforeTrailingTrivia.utf8Offset
            guard let active = decl.activeClause(in: configuration).clause, let elements = active.elements else {
                Self.blank(&bytes, start..<end)
                continue
            }
            Self.blank(&bytes, start..<elements.position.utf8Offset)
            Self.blank(&bytes, elements.endPosition.utf8Offset..<end)
        }
        text = String(decoding: bytes, as: UTF8.self)
        let imports = ImportCollector(viewMode: .sourceAccurate)
        imports.walk(Parser.parse(source: text))
        self.imports = imports.modules
    }

    /// Replaces every byte of `range` but line breaks with a space.
    private static func blank(_ bytes: inout [UInt8], _ range: Range<Int>) {
        for index in range where bytes[index] != UInt8(ascii: "\n") && bytes[index] != UInt8(ascii: "\r") {
            bytes[index] = UInt8(ascii: " ")
        }
    }
}

/// Every `#if` of a file, nested ones included.
private final class IfConfigCollector: SyntaxVisitor {
    var decls: [IfConfigDeclSyntax] = []

    override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
        decls.append(node)
        return .visitChildren
    }
}

/// The modules a file imports.
private final class ImportCollector: SyntaxVisitor {
    var modules: [String] = []

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        if let first = node.path.first { modules.append(first.name.text) }
        return .skipChildren
    }
}
