import Foundation
import Testing

/// Issue #30: the Apple-only adapters (`Sources/Sesame/Platform/`, `KeychainCredentialStore`)
/// cannot be built on Linux, so a wrong name, type or actor isolation in them would only show on
/// a Mac. This suite type-checks the whole `Sesame` module as the debug build compiled it, plus
/// `-D SESAME_APPLE_DECLARATIONS` and the declaration files of `Tests/AppleDeclarations/`
/// (`Security`, `LocalAuthentication`, `AuthenticationServices`, CryptoKit's Secure Enclave: exactly the Apple APIs the
/// adapters call, as Apple's headers declare them), so the adapters are compiled here in every
/// `swift test` and in CI.
///
/// The compiler's own command for `Sesame` is read from the build's manifest
/// (`.build/debug.yaml`): the same sources, package name, language mode and search paths.
/// Without a debug build the suite says so and skips, except in CI.
@Suite("Apple adapters compile against Apple's declarations (Tests/AppleDeclarations)", .serialized)
struct AppleAdapterCompileTests {
    static let declarations = PackageLayoutTests.root.appendingPathComponent("Tests/AppleDeclarations")
    static let frameworks = ["Security", "LocalAuthentication", "AuthenticationServices", "CryptoKit"]

    @Test("every adapter type-checks against the declaration files, and each one is compiled (not skipped by its #if)")
    func adaptersTypeCheck() async throws {
        guard let compiler = try Self.sesameCommand() else { return }
        let work = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        try await Self.emitDeclarationModules(compiler: compiler, into: work)
        // Names every adapter type, so an adapter left out by its `#if` fails here too.
        let probe = work.appendingPathComponent("AdapterProbe.swift")
        try Data(
            """
            @available(iOS 16.0, macOS 13.0, visionOS 1.0, *)
            let adapters: [Any.Type] = [
                WebAuthenticationSessionAgent.self, KeychainCredentialStore.self, KeychainBiometricUnlocker.self,
                PlatformPasskeyAuthenticator.self, PlatformSignInSheet.self, SignInWithAppleProvider.self,
                SecureEnclaveDPoPKey.self, SecureEnclaveDPoPKeys.self, ServerTrustPinning.self,
            ]
            """.utf8
        ).write(to: probe)
        let (status, log) = try await PublicAPI.run(
            compiler.swiftc, ["-typecheck"] + compiler.arguments + ["-I", work.path, "-DSESAME_APPLE_DECLARATIONS", probe.path])
        #expect(status == .exited(0), "the Apple adapters do not compile:\n\(log.prefix(8000))")
        #expect(!log.contains("error:"), "\(log.prefix(8000))")
    }

    /// The declarations are strict enough to catch the mistakes they exist for: an API that does
    /// not exist, a wrong argument type, and a main-actor delegate conforming to Apple's
    /// non-isolated delegate protocol without `@preconcurrency` (each was once in the adapters).
    @Test("the declaration files reject a wrong name, a wrong type and a main-actor delegate without @preconcurrency")
    func declarationsRejectMistakes() async throws {
        guard let compiler = try Self.sesameCommand() else { return }
        let work = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        try await Self.emitDeclarationModules(compiler: compiler, into: work)
        let cases: [(name: String, source: String, diagnostic: String)] = [
            ("a missing API", "let s = ASWebAuthenticationSession(url: URL(string: \"a:b\")!, scheme: \"a\") { _, _ in }",
             "incorrect argument label"),
            ("a wrong type", "var q: [String: Any] = [:]; let status: Int = SecItemDelete(q as CFDictionary)",
             "cannot convert value of type 'OSStatus'"),
            ("isolation",
             """
             @MainActor final class D: NSObject, ASAuthorizationControllerDelegate {
                 func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {}
                 func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {}
             }
             """, "crosses into main actor-isolated code"),
        ]
        for (name, source, diagnostic) in cases {
            let file = work.appendingPathComponent("Mistake.swift")
            try Data(("import Foundation\nimport Security\nimport AuthenticationServices\n" + source + "\n").utf8).write(to: file)
            let (status, log) = try await PublicAPI.run(
                compiler.swiftc, ["-typecheck", "-swift-version", "6", "-I", work.path, file.path])
            #expect(status != .exited(0), "\(name): compiled, but must not")
            #expect(log.contains(diagnostic), "\(name): expected '\(diagnostic)' in:\n\(log.prefix(3000))")
        }
        // The same delegate with `@preconcurrency`, as the adapters write it, compiles.
        let fixed = work.appendingPathComponent("Fixed.swift")
        try Data(
            """
            import Foundation
            import AuthenticationServices
            @MainActor final class D: NSObject, @preconcurrency ASAuthorizationControllerDelegate {
                func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {}
                func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {}
            }
            """.utf8
        ).write(to: fixed)
        let (status, log) = try await PublicAPI.run(compiler.swiftc, ["-typecheck", "-swift-version", "6", "-I", work.path, fixed.path])
        #expect(status == .exited(0), "\(log.prefix(3000))")
    }

    // MARK: - The compiler command

    struct Command {
        var swiftc: String
        /// The arguments that decide what `Sesame` means: sources, search paths, package name,
        /// language mode, defines, and the target triple.
        var arguments: [String]
    }

    /// `Sesame`'s compile command from `.build/debug.yaml`, or `nil` (skipping) where there is
    /// no debug build, outside CI.
    static func sesameCommand() throws -> Command? {
        let manifest = PackageLayoutTests.root.appendingPathComponent(".build/debug.yaml")
        guard let text = try? String(contentsOf: manifest, encoding: .utf8),
            let line = text.split(separator: "\n").first(where: {
                $0.contains("args: [") && $0.contains(#""-module-name","Sesame","#)
            }),
            let json = line.split(separator: "args:", maxSplits: 1).last,
            let args = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String], let swiftc = args.first
        else {
            let reason = "no debug build of Sesame in .build/debug.yaml (run swift build first)"
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw PublicAPI.Unavailable(description: reason) }
            print("skipped: \(reason)")
            return nil
        }
        return Command(swiftc: swiftc, arguments: Self.semanticArguments(Array(args.dropFirst())))
    }

    /// Keeps the arguments that change what the module means and drops those that only say where
    /// its outputs go (module, objects, index, dependency files).
    static func semanticArguments(_ args: [String]) -> [String] {
        let withValue: Set<String> = [
            "-module-name", "-I", "-target", "-Xcc", "-module-cache-path", "-swift-version", "-enable-upcoming-feature",
            "-enable-experimental-feature", "-package-name", "-sdk", "-resource-dir",
        ]
        var kept: [String] = []
        var index = 0
        while index < args.count {
            let argument = args[index]
            if withValue.contains(argument), index + 1 < args.count {
                kept += [argument, args[index + 1]]
                index += 2
                continue
            }
            if argument.hasPrefix("-D") || argument.hasPrefix("@") || argument == "-parse-as-library" {
                kept.append(argument)
            }
            index += 1
        }
        return kept
    }

    static func workDirectory() throws -> URL {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-apple-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        return work
    }

    /// Compiles each declaration file into a module of the framework's name in `directory`.
    static func emitDeclarationModules(compiler: Command, into directory: URL) async throws {
        for framework in frameworks {
            let source = declarations.appendingPathComponent("\(framework).swift")
            let (status, log) = try await PublicAPI.run(
                compiler.swiftc,
                [
                    "-emit-module", "-parse-as-library", "-swift-version", "6", "-module-name", framework,
                    "-emit-module-path", directory.appendingPathComponent("\(framework).swiftmodule").path, source.path,
                ])
            try #require(status == .exited(0), "Tests/AppleDeclarations/\(framework).swift does not compile:\n\(log.prefix(4000))")
        }
    }
}
