import Foundation

/// darwin-view: writes the Apple platforms' view of one module's source files.
///
///     darwin-view --out DIR [--define NAME]… [--overlay MODULE=OVERLAY]… [--linux-only MODULE]… FILE…
///
/// For each Apple platform (macOS, iOS, tvOS, watchOS, visionOS) it writes DIR/<platform>/
/// with each file as that platform's compiler reads it (`PlatformView`), and prints one line:
/// `<platform> same` when no file reads differently from Linux, else
/// `<platform> differs <digest>` (the digest tells views that are the same on two platforms
/// apart from those that are not). A file that imports MODULE also imports OVERLAY on the
/// same line: the stand-in of what Apple's SDK declares in MODULE and Linux's does not.
/// A `--linux-only` module is one the package gives the module on Linux only: `canImport` of
/// it is false on Apple platforms.
var out: String?
var linuxOnly: Set<String> = []
var defines: Set<String> = []
var overlays: [String: [String]] = [:]
var files: [String] = []
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--out": out = arguments.next()
    case "--define": defines.insert(arguments.next() ?? "")
    case "--linux-only": linuxOnly.insert(arguments.next() ?? "")
    case "--overlay":
        let pair = (arguments.next() ?? "").split(separator: "=", maxSplits: 1).map(String.init)
        guard pair.count == 2 else { fatalError("--overlay takes MODULE=OVERLAY") }
        overlays[pair[0], default: []].append(pair[1])
    default: files.append(argument)
    }
}
guard let out else {
    FileHandle.standardError.write(Data("usage: darwin-view --out DIR [--define NAME]… [--overlay M=O]… FILE…\n".utf8))
    exit(2)
}

let sources = try files.map { try String(contentsOfFile: $0, encoding: .utf8) }
let linux = sources.map {
    PlatformView(source: $0, configuration: .init(os: "Linux", customConditions: defines, linuxOnlyModules: linuxOnly))
        .text
}
for platform in PlatformConfiguration.apple {
    let configuration = PlatformConfiguration(os: platform, customConditions: defines, linuxOnlyModules: linuxOnly)
    let directory = URL(fileURLWithPath: out).appendingPathComponent(platform)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var differs = false
    var digest = Hasher()
    for (index, file) in files.enumerated() {
        let view = PlatformView(source: sources[index], configuration: configuration)
        differs = differs || view.text != linux[index]
        digest.combine(view.text)
        // The overlays go on the first line, so that every line keeps its number.
        let extra = view.imports.flatMap { overlays[$0] ?? [] }.map { "import \($0); " }.joined()
        let name = URL(fileURLWithPath: file).lastPathComponent
        try (extra + view.text).write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    print(
        differs
            ? "\(platform) differs \(String(UInt64(bitPattern: Int64(digest.finalize())), radix: 16))"
            : "\(platform) same")
}
