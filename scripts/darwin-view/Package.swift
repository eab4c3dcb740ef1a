// swift-tools-version: 6.2
import PackageDescription

/// `darwin-view`: the Apple platforms' view of Strata's sources, for scripts/check-darwin.sh.
/// A package of its own so that Strata's build never fetches swift-syntax.
let package = Package(
    name: "darwin-view",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1")
    ],
    targets: [
        .executableTarget(
            name: "darwin-view",
            dependencies: [
                .product(name: "SwiftIfConfig", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
