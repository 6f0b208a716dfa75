import ChildProcess
import Foundation
import Testing

/// The package must build on macOS's case-insensitive file systems: two targets, source
/// folders or build artifacts that differ only by letter case would land in one folder there
/// (`Sources/Sesame` and `Sources/sesame` once merged on clone, and `Sesame.build` collided with
/// `sesame.build`). Reads the manifest with `swift package dump-package` and the tree.
@Suite("Package layout builds on case-insensitive file systems")
struct PackageLayoutTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Names that differ only by case, grouped.
    static func caseClashes(_ names: [String]) -> [[String]] {
        Dictionary(grouping: Set(names), by: { $0.lowercased() }).values.filter { $0.count > 1 }.map { $0.sorted() }
    }

    @Test("the clash finder finds what it must")
    func finder() {
        #expect(Self.caseClashes(["Sesame", "sesame", "SesameCLI"]) == [["Sesame", "sesame"]])
        #expect(Self.caseClashes(["Sesame", "SesameCLI"]).isEmpty)
    }

    @Test("no two source or test folders differ only by case")
    func folders() throws {
        for parent in ["Sources", "Tests", "Tests/Support"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent(parent).path)
            #expect(Self.caseClashes(names).isEmpty, "\(parent): \(Self.caseClashes(names))")
        }
    }

    @Test("no two targets differ by case, nor any build artifact (target folders, modules, executables)")
    func manifest() async throws {
        let manifest = try await Self.dumpPackage()
        let targets = (manifest["targets"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(targets.contains("SesameCLI") && targets.contains("Sesame"))
        #expect(Self.caseClashes(targets).isEmpty, "targets: \(Self.caseClashes(targets))")
        // What SwiftPM writes into .build/<configuration>/: `<target>.build`, `<module>.swiftmodule`,
        // and for each executable `<name>` and `<name>.product`.
        let products = manifest["products"] as? [[String: Any]] ?? []
        let executables = products.filter { ($0["type"] as? [String: Any])?["executable"] != nil }
            .compactMap { $0["name"] as? String }
        #expect(executables == ["sesame", "sesame-quickstart"], "the executables stay `sesame` and the quickstart app")
        let artifacts = targets.flatMap { ["\($0).build", "\($0).swiftmodule"] }
            + executables.flatMap { [$0, "\($0).product"] }
        #expect(Self.caseClashes(artifacts).isEmpty, "build artifacts: \(Self.caseClashes(artifacts))")
    }

    /// `swift package dump-package`, with a scratch path of its own: the running `swift test`
    /// holds the lock on `.build`.
    /// The manifest at `package` (default: the repository's root package) as JSON.
    static func dumpPackage(at package: URL = root) async throws -> [String: Any] {
        let swift = try #require(PublicAPI.tool("swift"), "swift is not on PATH")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-dump-\(UUID().uuidString)")
        let output = scratch.appendingPathExtension("json")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: scratch)
            try? FileManager.default.removeItem(at: output)
        }
        let child = try SpawnedChild.spawn(
            swift, arguments: ["package", "--package-path", package.path, "--scratch-path", scratch.path, "dump-package"],
            environment: ProcessInfo.processInfo.environment, input: .file("/dev/null"), output: .file(output.path),
            error: .file("/dev/null"))
        for await termination in child.termination() { #expect(termination == .exited(0)) }
        let data = try Data(contentsOf: output)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
