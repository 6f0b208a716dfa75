// swift-tools-version:6.1
// Sesame benchmarks: a package of its own so the root build and `swift test` stay lean.
// Run with `swift package benchmark` from this directory.
import Foundation
import PackageDescription

// A path dependency's identity is its folder name (the clone may be called anything).
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let sesame = root.lastPathComponent.lowercased()

let package = Package(
    name: "SesameBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
    ],
    targets: [
        // Token endpoint and discovery under 32 concurrent connections vs the signing bound:
        // the release `sesame serve` in its own process (build it first:
        // `swift build -c release --product sesame`), load from `wrk` (apt-get install wrk);
        // "Side by side.*" runs the same loads against glewlwyd (apt-get install glewlwyd sqlite3).
        .executableTarget(
            name: "ServerBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "SesameServer", package: sesame),
                .product(name: "SesameProtocol", package: sesame),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/ServerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // ID token and access token validation vs the signature alone, credential stores, refresh fan-in.
        .executableTarget(
            name: "SDKBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sesame", package: sesame),
                .product(name: "SesameResourceServer", package: sesame),
                .product(name: "SesameServer", package: sesame),
                .product(name: "SesameProtocol", package: sesame),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/SDKBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
