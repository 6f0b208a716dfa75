import Foundation
import Testing

/// Issue #30: the library products' public surface is committed under `API/` (one file per
/// module, one line per declaration) and this test fails when the built surface differs, naming
/// each added and removed declaration. An intended change regenerates the files:
///
///     SESAME_UPDATE_API_BASELINE=1 swift test --filter PublicAPIBaselineTests
///
/// and the diff of `API/` in the commit is the API review. Every public declaration has a doc
/// comment: the test names each one without (the compiler's synthesized members and the
/// dependencies' default implementations excepted).
///
/// The surface is read on Linux (the Apple-only adapters are not in it); on other systems, or
/// without a debug build, the test says so and skips, except in CI.
@Suite("Public API baseline (API/)", .serialized)
struct PublicAPIBaselineTests {
    static var updating: Bool { ProcessInfo.processInfo.environment["SESAME_UPDATE_API_BASELINE"] == "1" }

    @Test("each library module's public surface equals its committed baseline", arguments: PublicAPI.modules)
    func baseline(module: String) async throws {
        #if !os(Linux)
            // The baseline is Linux's surface: Apple platforms add the Platform/ adapters.
            return
        #else
            let declarations: [PublicAPI.Declaration]
            do {
                declarations = try await PublicAPI.declarations(of: module)
            } catch let unavailable as PublicAPI.Unavailable {
                if ProcessInfo.processInfo.environment["CI"] == "true" { throw unavailable }
                print("skipped: \(unavailable)")
                return
            }
            #expect(!declarations.isEmpty, "\(module): \(declarations.count) declarations read")
            let surfaceFile = PublicAPI.baselineDirectory.appendingPathComponent("\(module).txt")
            let surface = declarations.map(\.line).joined(separator: "\n") + "\n"
            let undocumented = declarations.filter { !$0.documented }.map(\.line)
            for missing in undocumented {
                Issue.record("\(module): public declaration without a doc comment: \(missing)")
            }
            if Self.updating {
                try FileManager.default.createDirectory(at: PublicAPI.baselineDirectory, withIntermediateDirectories: true)
                try Data(surface.utf8).write(to: surfaceFile)
                return
            }
            let committed = try String(contentsOf: surfaceFile, encoding: .utf8)
            let before = Set(committed.split(separator: "\n").map(String.init))
            let now = Set(declarations.map(\.line))
            for added in now.subtracting(before).sorted() {
                Issue.record("\(module): new public declaration not in API/\(module).txt: \(added)")
            }
            for removed in before.subtracting(now).sorted() {
                Issue.record("\(module): public declaration removed (a breaking change): \(removed)")
            }
        #endif
    }

    @Test("the declaration line names kind, path and signature; a doc comment is detected")
    func lineFormat() {
        let symbol: [String: Any] = [
            "kind": ["identifier": "swift.func"], "pathComponents": ["AccessTokenValidator", "validate(_:)"],
            "declarationFragments": [["spelling": "func"], ["spelling": " "], ["spelling": "validate"], ["spelling": "(_ token: String)"]],
            "docComment": ["lines": [["text": "Validates."]]],
            "location": ["uri": "file:///Sources/SesameResourceServer/AccessTokenValidator.swift"],
        ]
        let line = PublicAPI.declaration(symbol)
        #expect(line.line == "func AccessTokenValidator.validate(_:): func validate(_ token: String)")
        #expect(line.documented)
        var bare = symbol
        bare["docComment"] = nil
        #expect(!PublicAPI.declaration(bare).documented)
        // The compiler's own declarations (no source location) cannot carry a comment.
        bare["location"] = nil
        #expect(PublicAPI.declaration(bare).documented)
    }
}
