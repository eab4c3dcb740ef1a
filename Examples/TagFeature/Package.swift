// swift-tools-version: 6.2
import Foundation
import PackageDescription

// A feature written outside Strata, in a package of its own that depends on Strata by path:
// it sees only Strata's public API, so building and testing it proves an app can add a
// feature (an endpoint option, a per-call value, a record on the response and the error, a
// step that bounds its own waits) without a change to Strata. `.ci/run` builds and tests it.

/// Strata's checkout, two folders up; SwiftPM names a path dependency after its folder.
let strata = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

let package = Package(
    name: "TagFeature",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [.library(name: "TagFeature", targets: ["TagFeature"])],
    dependencies: [
        .package(path: strata.path),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The tests' server: a real HTTP peer on 127.0.0.1.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .target(
            name: "TagFeature",
            dependencies: [
                .product(name: "Strata", package: strata.lastPathComponent),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "TagFeatureTests",
            dependencies: [
                "TagFeature",
                .product(name: "Strata", package: strata.lastPathComponent),
                .product(name: "StrataURLSession", package: strata.lastPathComponent),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
