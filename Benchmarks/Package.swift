// swift-tools-version: 6.1
// Micro-benchmarks of Strata with ordo-one/benchmark, kept out of the main package so that
// neither `swift build` nor `swift test` there builds them. Run from this folder:
//
//     swift package benchmark                 # every benchmark, default metrics
//     swift package benchmark --filter Decode # some of them
//
// See ../Benchmarks.md.
import PackageDescription

let package = Package(
    name: "StrataBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Strata", path: ".."),  // named: a path dependency is otherwise known by its folder's name
        // The interposer counts allocations; `traits:` also leaves out the Linux runtime
        // interposer, whose package this machine's registry lacks.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "StrataBenchmarks",
            dependencies: [
                .product(name: "Strata", package: "Strata"),
                .product(name: "StrataTesting", package: "Strata"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/StrataBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
