import SwiftIfConfig
import SwiftSyntax

/// What `#if` sees when a file is compiled for one platform: its operating system, its
/// modules, and the package's custom conditions (`-D`, traits).
struct PlatformConfiguration: BuildConfiguration {
    /// The operating systems `os(…)` names, and what each one brings.
    static let apple = ["macOS", "iOS", "tvOS", "watchOS", "visionOS"]

    /// Modules only Apple's SDKs have. `canImport` of one is true on an Apple platform and
    /// false on Linux; UI frameworks are left out: Strata's sources name none.
    static let appleOnlyModules: Set<String> = [
        "Darwin", "Security", "CryptoKit", "Network", "ObjectiveC", "os", "CoreFoundation",
        "SystemConfiguration", "CFNetwork",
    ]
    /// Modules only the Linux toolchain has.
    static let linuxToolchainModules: Set<String> = [
        "Glibc", "Musl", "FoundationNetworking", "FoundationXML", "Android",
    ]

    let os: String
    let customConditions: Set<String>
    /// The package's modules this module gets on Linux only (a platform-conditioned dependency).
    var linuxOnlyModules: Set<String> = []

    var isApple: Bool { Self.apple.contains(os) }

    func isCustomConditionSet(name: String) throws -> Bool { customConditions.contains(name) }
    func hasFeature(name: String) throws -> Bool { false }
    func hasAttribute(name: String) throws -> Bool { true }

    func canImport(importPath: [(TokenSyntax, String)], version: CanImportVersion) throws -> Bool {
        let module = importPath.first?.1 ?? ""
        if Self.appleOnlyModules.contains(module) { return isApple }
        if Self.linuxToolchainModules.contains(module) || linuxOnlyModules.contains(module) { return !isApple }
        return true  // the standard library, Foundation, Dispatch and the packages' modules
    }

    func isActiveTargetOS(name: String) throws -> Bool { name == os }
    func isActiveTargetArchitecture(name: String) throws -> Bool { name == (isApple ? "arm64" : "x86_64") }
    func isActiveTargetEnvironment(name: String) throws -> Bool { false }
    func isActiveTargetRuntime(name: String) throws -> Bool { name == (isApple ? "_ObjC" : "_Native") }
    func isActiveTargetPointerAuthentication(name: String) throws -> Bool { false }
    func isActiveTargetObjectFormat(name: String) throws -> Bool { name == (isApple ? "MachO" : "ELF") }
    var targetPointerBitWidth: Int { 64 }
    var targetAtomicBitWidths: [Int] { [8, 16, 32, 64, 128] }
    var endianness: Endianness { .little }
    var languageVersion: VersionTuple { VersionTuple(6) }
    /// The compiler that type-checks the view: `compiler(…)` conditions ask about it.
    var compilerVersion: VersionTuple { VersionTuple(6, 3) }
}
