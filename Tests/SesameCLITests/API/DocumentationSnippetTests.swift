import Foundation
import Testing

/// Docs are product (issue #45): every Swift block of the README, `docs/` and the DocC catalogs
/// is a generated source file under `DocSnippets/` (``DocumentationSnippet``), and this suite keeps
/// the two in step. The SDK's blocks build in the `SDKSnippets` target, of this package and of
/// the SDK's own (`SDK/`, against the SDK's modules alone); the server side's in `ServerSnippets`;
/// the Apple-only blocks are type-checked here with the SDK against Apple's declarations. An
/// intended change of a block regenerates the files:
///
///     SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests
@Suite("Documentation code blocks compile (DocSnippets/)", .serialized)
struct DocumentationSnippetTests {
    static let root = PackageLayoutTests.root
    static let folder = root.appendingPathComponent("DocSnippets")
    static var updating: Bool { ProcessInfo.processInfo.environment["SESAME_UPDATE_SNIPPETS"] == "1" }

    static func snippets() throws -> [DocumentationSnippet] {
        try DocumentationSnippet.documents(root: root).flatMap { document in
            DocumentationSnippet.parse(
                try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8), document: document)
        }
    }

    @Test("every Swift block of the docs has its generated source under DocSnippets/, and nothing else is there")
    func inStep() throws {
        let snippets = try Self.snippets()
        #expect(snippets.count >= 20, "\(snippets.count) blocks read")
        var expected: [String: String] = [:]
        for snippet in snippets where snippet.kind != .skipped {
            expected["\(snippet.kind.rawValue)/\(snippet.name).swift"] = snippet.source
        }
        // A folder with no block still needs a file for its target to build.
        for kind in [DocumentationSnippet.Kind.sdk, .server, .apple] where !expected.keys.contains(where: { $0.hasPrefix(kind.rawValue + "/") }) {
            expected["\(kind.rawValue)/Empty.swift"] = "// No block of the docs is compiled here yet.\n"
        }
        let skipped = snippets.filter { $0.kind == .skipped }
        expected["Skipped.md"] =
            "# Documentation blocks not compiled on purpose\n\n"
            + (skipped.isEmpty ? "None.\n" : skipped.map { "- \($0.document):\($0.line): \($0.skipReason ?? "")\n" }.joined())
        var present: [String: String] = [:]
        let manager = FileManager.default
        for path in manager.enumerator(atPath: Self.folder.path)?.compactMap({ $0 as? String }) ?? []
        where path.hasSuffix(".swift") || path.hasSuffix(".md") {
            present[path] = try String(contentsOf: Self.folder.appendingPathComponent(path), encoding: .utf8)
        }
        if Self.updating {
            for path in Set(present.keys).subtracting(expected.keys) {
                try manager.removeItem(at: Self.folder.appendingPathComponent(path))
            }
            for (path, text) in expected where present[path] != text {
                let file = Self.folder.appendingPathComponent(path)
                try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            }
            return
        }
        for path in expected.keys.sorted() where present[path] != expected[path] {
            Issue.record("DocSnippets/\(path) is not what the docs say; run SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests")
        }
        for path in Set(present.keys).subtracting(expected.keys).sorted() {
            Issue.record("DocSnippets/\(path) comes from no block of the docs; regenerate")
        }
    }

    @Test("a block's marker gives it parameters, file scope, the Apple kind or a reason to skip it")
    func markers() {
        let text = """
            <!-- snippet: given sesame: SesameClient, pin: String -->
            ```swift
            _ = try await sesame.pin.unlock(with: pin)
            ```
            <!-- snippet: file; apple -->
            ```swift
            import Sesame
            final class Model {}
            ```
            ```swift
            import Hummingbird
            let router = Router()
            ```
            <!-- snippet: skip: pseudo-code -->
            ```swift
            anything
            ```
            """
        let blocks = DocumentationSnippet.parse(text, document: "docs/example.md")
        #expect(blocks.count == 4)
        #expect(blocks[0].given == ["sesame: SesameClient", "pin: String"] && blocks[0].kind == .sdk)
        #expect(blocks[0].source.contains("func snippet_docs_example_1(sesame: SesameClient, pin: String) async throws {"))
        #expect(blocks[1].fileScope && blocks[1].kind == .apple && blocks[1].source.contains("#if SESAME_APPLE_DECLARATIONS"))
        #expect(!blocks[1].source.contains("import Sesame\n"), "compiled inside the Sesame module")
        #expect(blocks[2].kind == .server)
        #expect(blocks[3].kind == .skipped && blocks[3].skipReason == "pseudo-code")
    }

    /// SwiftPM builds every file of a package's top-level `Snippets/` folder as an executable of its
    /// own: the docs' blocks there cost a fresh clone 38 extra links of a 220 MB debug binary (the
    /// root's 24 and the SDK package's 14) for code the snippet targets already compile.
    @Test("neither package has a top-level Snippets/ folder (SwiftPM would link each block as an executable)")
    func noSwiftPMSnippetFolder() {
        for package in [Self.root, Self.root.appendingPathComponent("SDK")] {
            let folder = package.appendingPathComponent("Snippets").path
            #expect(!FileManager.default.fileExists(atPath: folder), "\(folder) exists; the blocks live in DocSnippets/")
        }
    }
}

/// The Apple-only blocks of the docs, type-checked with the SDK against Apple's declarations: a
/// suite of its own, so that its ~30 s of one compiler process start with the run instead of
/// after the serialized suite above (last, it was the run's single-threaded tail).
@Suite("Documentation code blocks for Apple platforms type-check")
struct AppleDocumentationSnippetTests {
    @Test("the Apple blocks type-check with the SDK against Apple's declarations")
    func appleBlocks() async throws {
        guard let compiler = try AppleAdapterCompileTests.sesameCommand() else { return }
        let folder = DocumentationSnippetTests.folder.appendingPathComponent("Apple")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let sources = files.filter { $0.hasSuffix(".swift") }.sorted().map { folder.appendingPathComponent($0).path }
        #expect(sources.count >= 5, "\(sources)")
        let work = try AppleAdapterCompileTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        try await AppleAdapterCompileTests.emitDeclarationModules(compiler: compiler, into: work)
        let (status, log) = try await PublicAPI.run(
            compiler.swiftc, ["-typecheck"] + compiler.arguments + ["-I", work.path, "-DSESAME_APPLE_DECLARATIONS"] + sources)
        let errors = log.split(separator: "\n").filter { $0.contains("error:") }
        #expect(status == .exited(0) && errors.isEmpty, "the Apple blocks do not compile:\n\(errors.prefix(40).joined(separator: "\n"))")
    }
}
