// swift-tools-version:6.1
// Sesame: an identity platform. One package, three layers:
//   SesameProtocol  <- Sesame (client SDK) <- SesameLoopback (desktop browser agent, with ChildProcess)
//   SesameProtocol  <- SesameStore (records, store protocols, SQL over SQLite and PostgreSQL, migrations)
//                   <- SesameServer (OpenID provider)
//   SesameCLI (the `sesame` executable) on top of all of them.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Sesame",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "SesameProtocol", targets: ["SesameProtocol"]),
        .library(name: "Sesame", targets: ["Sesame"]),
        .library(name: "SesameResourceServer", targets: ["SesameResourceServer"]),
        .library(name: "SesameResourceServerHummingbird", targets: ["SesameResourceServerHummingbird"]),
        .library(name: "SesameResourceServerSQL", targets: ["SesameResourceServerSQL"]),
        .library(name: "SesameLoopback", targets: ["SesameLoopback"]),
        .library(name: "SesameNIOTransport", targets: ["SesameNIOTransport"]),
        .library(name: "SesameStore", targets: ["SesameStore"]),
        .library(name: "SesameProvider", targets: ["SesameProvider"]),
        .library(name: "SesameServer", targets: ["SesameServer"]),
        // The executable stays `sesame`; its target is SesameCLI so that no two targets or
        // source folders differ only by case (macOS file systems fold case).
        .executable(name: "sesame", targets: ["SesameCLI"]),
        .executable(name: "sesame-quickstart", targets: ["Quickstart"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"5.0.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.0"),
        // The store's own SQLite connection uses SQLiteNIO's build of SQLite and its value type.
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.0"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // Outbound HTTP of the server: federation providers' keys.
        // `/metrics` in the Prometheus text format (SesameServer only).
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
        // YAML seed files (SesameServer only; never the SDK).
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
    ],
    targets: [
        // Wire models shared by SDK and server: metadata, requests, responses, errors, PKCE.
        .target(
            name: "SesameProtocol",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        // The client SDK. Never imports server code or SwiftNIO; builds for iOS.
        // JOSE validation primitives shared by the SDK and the resource-server library: the
        // compact-JWS reader, the strict claims reader and the provider's key set (RFC 7515-7519).
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
                // scrypt (KDF.Scrypt) for the PIN-sealed device key.
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
        // The SDK's transport on SwiftNIO and swift-nio-ssl, for Linux apps (and the CLI) that pin
        // certificates: URLSession on Linux has no TLS trust hook. A product of its own, so apps
        // that do not pin never link SwiftNIO.
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
        // Child processes started with posix_spawn instead of Foundation's Process (see
        // SpawnedChild): the browser launchers and the tests. macOS, Linux and the BSDs only.
        .target(name: "ChildProcess", dependencies: ["SesameProtocol"], swiftSettings: strict),
        // RFC 8252 §7.3 loopback redirect listener for desktop and command-line apps.
        .target(
            name: "SesameLoopback",
            dependencies: [
                "Sesame", "SesameProtocol", "ChildProcess",
            ],
            swiftSettings: strict
        ),
        // The server's storage: persisted records, the store protocols, the one SQLKit
        // implementation (SQLite embedded), its migrations, and the data directory. The seam
        // every server feature persists through; it knows nothing of HTTP.
        .target(
            name: "SesameStore",
            dependencies: [
                "SesameProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),
        // The OpenID provider's logic without HTTP: keys, users, secrets, the audit log,
        // messaging, administration, seed files, maintenance. No Hummingbird, no SwiftNIO.
        // A person at a browser, scripted over plain HTTP (cookies, forms, no automatic
        // redirects): the demo's sign-in and the tests' browser.
        // For an app's own API: validates Sesame's RFC 9068 access tokens (framework-free).
        .target(
            name: "SesameResourceServer",
            dependencies: ["SesameProtocol", "SesameJOSE", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        // The DPoP replay store an API's instances share, over SQLKit (PostgreSQL, or SQLite):
        // a proof accepted by one instance is refused by the others.
        .target(
            name: "SesameResourceServerSQL",
            dependencies: ["SesameProtocol", "SesameResourceServer", .product(name: "SQLKit", package: "sql-kit")],
            swiftSettings: strict
        ),
        // The resource-server library as Hummingbird 2 middleware (RFC 6750 challenges).
        .target(
            name: "SesameResourceServerHummingbird",
            dependencies: [
                "SesameResourceServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        // An example API protected by Sesame's access tokens: what `sesame demo` calls.
        .target(
            name: "ExampleAPI",
            dependencies: [
                "SesameResourceServer", "SesameResourceServerHummingbird",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .target(name: "ScriptedBrowser", dependencies: ["SesameProtocol"], swiftSettings: strict),
        // Every Swift block of the README, docs/ and the DocC catalogs, generated from them by
        // DocumentationSnippetTests and compiled here (docs are product: a copied block builds).
        // The SDK's blocks build against the SDK's modules only (CI's import check holds them to it;
        // SDK/ builds them too).
        .target(
            name: "SDKSnippets",
            dependencies: ["Sesame", "SesameLoopback", "SesameResourceServer"],
            path: "DocSnippets/SDK",
            swiftSettings: strict
        ),
        .target(
            name: "ServerSnippets",
            dependencies: [
                "SesameResourceServer", "SesameResourceServerHummingbird", "SesameResourceServerSQL", "SesameNIOTransport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "DocSnippets/Server",
            swiftSettings: strict
        ),
        // Examples/Quickstart: the README's desktop app, runnable (`sesame-quickstart`).
        .executableTarget(
            name: "Quickstart",
            dependencies: ["Sesame", "SesameLoopback"],
            path: "Examples/Quickstart",
            swiftSettings: strict
        ),
        // The system's libcrypto (OpenSSL 3, Debian's libssl-dev to build; the server already
        // loads libcrypto.so.3 through FoundationNetworking's libcurl): RS256 signing on Linux,
        // where OpenSSL's RSA uses AVX-512 IFMA and BoringSSL's does not (Keys/LibcryptoRS256Signer).
        .systemLibrary(
            name: "CLibcrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(
            name: "SesameProvider",
            dependencies: [
                "SesameProtocol", "SesameJOSE", "SesameStore",
                .target(name: "CLibcrypto", condition: .when(platforms: [.linux])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict
        ),
        // The OpenID Connect provider over HTTP (Hummingbird 2): routes, hosted pages, OpenAPI.
        .target(
            name: "SesameServer",
            dependencies: [
                "SesameProtocol", "SesameStore", "SesameProvider", "HTTP1Client",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            // One string file per locale (Localization/Strings/<tag>.json), read through Bundle.module;
            // the admin console's own (Admin/Console/ConsoleStrings/<tag>.json, English today).
            resources: [.copy("Localization/Strings"), .copy("Admin/Console/ConsoleStrings")],
            swiftSettings: strict
        ),
        // The `sesame` command-line tool.
        .executableTarget(
            name: "SesameCLI",
            dependencies: [
                "SesameProtocol", "Sesame", "SesameLoopback", "SesameNIOTransport", "SesameServer", "ChildProcess",
                "ScriptedBrowser", "ExampleAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Test helper: a child process that rewrites file-store records until killed.
        .executableTarget(
            name: "CredentialStoreCrashWriter",
            dependencies: ["Sesame"],
            path: "Tests/Support/CredentialStoreCrashWriter",
            swiftSettings: strict
        ),
        // Test support: a real headless Chromium driven over the DevTools protocol (pipe
        // transport), for the tests of every hosted page.
        .target(
            name: "HeadlessChromium",
            dependencies: ["ChildProcess"],
            path: "Tests/Support/HeadlessChromium",
            swiftSettings: strict
        ),
        // Test support: bounds how many test cases `swift test` runs at once (four per CPU),
        // before swift-testing reads its settings; linked into every test target through
        // TestSupport.
        .target(name: "TestParallelism", path: "Tests/Support/TestParallelism"),
        // Test support: the repository's fixtures (Tests/Fixtures), the Wycheproof model and the
        // manual clock (a SesameClock for the SDK's tests), shared by the test targets.
        .target(
            name: "TestSupport",
            dependencies: ["SesameProtocol", "Sesame", "TestParallelism", "ChildProcess"],
            path: "Tests/Support/TestSupport",
            swiftSettings: strict
        ),
        // Test support: a real SQLite store in a throw-away directory, sample records and a
        // clock the tests move by hand; shared by the store and server tests.
        .target(
            name: "StoreTesting",
            dependencies: [
                "SesameProtocol", "SesameStore", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tests/Support/StoreTesting",
            swiftSettings: strict
        ),
        // Test support: the real server in process with the fixture clients and users, a
        // test HTTP client, the hosted-form reader and JWT decoding (as HummingbirdTesting).
        .target(
            name: "SesameTesting",
            dependencies: [
                "SesameProtocol", "SesameServer", "StoreTesting", "TestSupport", "ScriptedBrowser",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/Support/SesameTesting",
            swiftSettings: strict
        ),
        .testTarget(name: "SesameProtocolTests", dependencies: ["SesameProtocol", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "SesameTests",
            dependencies: [
                "Sesame", "SesameJOSE", "CredentialStoreCrashWriter", "ChildProcess", "TestSupport",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SesameResourceServerTests",
            dependencies: [
                "SesameResourceServer", "SesameResourceServerHummingbird", "SesameResourceServerSQL", "ExampleAPI",
                "SesameJOSE", "SesameStore", "SesameTesting", "StoreTesting", "TestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SesameStoreTests",
            dependencies: [
                "SesameStore", "StoreTesting", "TestSupport",
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            swiftSettings: strict
        ),
        // The identity core's own tests: no HTTP, no server, only the provider and the store's
        // test support (a real SQLite file, a throw-away PostgreSQL).
        .testTarget(
            name: "SesameProviderTests",
            dependencies: [
                "SesameProvider", "SesameStore", "StoreTesting", "TestSupport",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "SesameServerTests",
            dependencies: [
                "SesameServer", "SesameStore", "StoreTesting", "SesameTesting", "ChildProcess", "TestSupport",
                "SesameNIOTransport",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            // A real SMTP server the tests start; a TLS client held open across a certificate reload.
            exclude: ["Messaging/smtp_sink.py", "Transport/tls_keepalive.py"],
            swiftSettings: strict),
        .testTarget(
            name: "SesameIntegrationTests",
            dependencies: [
                "Sesame", "SesameLoopback", "SesameNIOTransport", "SesameServer", "HeadlessChromium", "SesameTesting",
                "StoreTesting", "TestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                // The fake social providers' JWKS endpoints (real HTTP).
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            // A plain-HTTP server that misbehaves on purpose (NIOTransportLimitsTests).
            exclude: ["Transport/misbehaving_server.py"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SesameCLITests",
            dependencies: [
                "SesameCLI", "ChildProcess", "SesameTesting", "StoreTesting", "TestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict),
    ]
)
