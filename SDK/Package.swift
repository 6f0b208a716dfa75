// swift-tools-version:6.1
//
// The client SDK as a package of its own, for apps: the same sources as the repository's root
// package (Sources/SesameProtocol, SesameJOSE, Sesame, SesameLoopback, ChildProcess,
// SesameResourceServer, linked here), with the Apple floor the SDK needs instead of the server's.
//
// Products: `Sesame` (every app), `SesameLoopback` (desktop and command-line apps on macOS and
// Linux: the system browser and a loopback redirect listener, RFC 8252 §7.3, with no networking
// framework), `SesameResourceServer` (an app's own API), `SesameProtocol` (the wire models, also
// re-exported by `Sesame`).
//
// Why two packages (README, "Platforms"): SwiftPM has one floor per package, and the server's
// code uses the standard library's `Mutex` (macOS 15). The SDK depends only on swift-crypto, jwt-kit and swift-log;
// jwt-kit 5 sets the floor here (iOS 15, macOS 13, tvOS 15, watchOS 8).
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SesameSDK",
    platforms: [.iOS(.v15), .macOS(.v13), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "SesameProtocol", targets: ["SesameProtocol"]),
        .library(name: "Sesame", targets: ["Sesame"]),
        .library(name: "SesameLoopback", targets: ["SesameLoopback"]),
        // Linux apps that pin certificates (URLSession on Linux has no TLS trust hook): the only
        // product that links SwiftNIO and swift-nio-ssl.
        .library(name: "SesameNIOTransport", targets: ["SesameNIOTransport"]),
        .library(name: "SesameResourceServer", targets: ["SesameResourceServer"]),
        // The README's desktop app (Examples/Quickstart): `swift run --package-path SDK sesame-quickstart`.
        .executable(name: "sesame-quickstart", targets: ["Quickstart"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"5.0.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.6.0"),
        // SesameNIOTransport only (jwt-kit builds it already).
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        // SesameNIOTransport only.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
    ],
    targets: [
        .target(
            name: "SesameProtocol",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        .target(
            name: "SesameJOSE",
            dependencies: [
                "SesameProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "Sesame",
            dependencies: [
                "SesameProtocol", "SesameJOSE",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                // Certificate pins: the SubjectPublicKeyInfo of a DER certificate (jwt-kit builds it already).
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strict
        ),
        // A minimal HTTP/1.1 client on SwiftNIO and swift-nio-ssl (one exchange per connection):
        // under the SDK's NIOTransport and the server's calls to federation providers.
        .target(
            name: "HTTP1Client",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "SesameNIOTransport",
            dependencies: [
                "Sesame", "SesameProtocol", "HTTP1Client",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strict
        ),
        .target(name: "ChildProcess", dependencies: ["SesameProtocol"], swiftSettings: strict),
        .target(
            name: "SesameLoopback",
            dependencies: ["Sesame", "SesameProtocol", "ChildProcess"],
            swiftSettings: strict
        ),
        .target(
            name: "SesameResourceServer",
            dependencies: ["SesameProtocol", "SesameJOSE", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        // The documentation's SDK code blocks (DocSnippets/SDK, generated from the docs): built here
        // against this package alone, so every block an app copies compiles with this package.
        .target(
            name: "SDKSnippets",
            dependencies: ["Sesame", "SesameLoopback", "SesameResourceServer"],
            path: "DocSnippets",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "Quickstart",
            dependencies: ["Sesame", "SesameLoopback"],
            path: "Examples/Quickstart",
            swiftSettings: strict
        ),
    ]
)
