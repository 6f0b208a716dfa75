import Foundation

/// Every Swift code block of the README, `docs/` and the DocC catalogs, as the source files that
/// compile it (issue #45): a newcomer copies these blocks, so each one is built in CI.
///
/// A block is compiled as it stands. What it takes from its surroundings (the `sesame` client an
/// article set up before, a `window`) is named in an HTML comment just before the fence, which
/// Markdown and DocC do not show:
///
///     <!-- snippet: given sesame: SesameClient, window: ASPresentationAnchor; apple -->
///
/// - `given name: Type, …`: the block becomes the body of a function with these parameters.
/// - `file`: the block is file-scope declarations (types, extensions), compiled as they are.
/// - `main actor`: the block runs on the main actor (a button's action, a view's task).
/// - `apple`: Apple-only code: type-checked with the SDK against the declaration files of
///   `Tests/AppleDeclarations` (``AppleAdapterCompileTests``), not built for Linux.
/// - `skip: why`: deliberately not compiled (the reason is shown in the generated index).
///
/// Without a comment the block is a function body with no parameters. A block whose imports
/// name only the SDK's modules is compiled in the `SDKSnippets` target, which depends on the
/// SDK's modules only (CI's import check refuses anything else; the SDK's own package builds it
/// too); one that imports the server side
/// (Hummingbird, the resource server's SQL store) or SwiftNIO (`SesameNIOTransport`) in
/// `ServerSnippets`, which only the root package builds.
struct DocumentationSnippet: Equatable {
    enum Kind: String {
        case sdk = "SDK"
        case server = "Server"
        case apple = "Apple"
        case skipped = "Skipped"
    }

    var document: String
    var line: Int
    var index: Int
    var code: String
    var given: [String] = []
    var fileScope = false
    var mainActor = false
    var kind: Kind = .sdk
    var skipReason: String?

    /// The documents whose blocks are compiled, relative to the repository.
    static func documents(root: URL) -> [String] {
        var paths = ["README.md"]
        let manager = FileManager.default
        for folder in ["docs"] + ((try? manager.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? [])
            .sorted().flatMap({ module in
                ((try? manager.contentsOfDirectory(atPath: root.appendingPathComponent("Sources/\(module)").path)) ?? [])
                    .filter { $0.hasSuffix(".docc") }.map { "Sources/\(module)/\($0)" }
            })
        {
            let names = (try? manager.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
            paths += names.filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
        }
        return paths
    }

    /// The Swift blocks of one document, in order.
    static func parse(_ text: String, document: String) -> [DocumentationSnippet] {
        var snippets: [DocumentationSnippet] = []
        let lines = text.components(separatedBy: "\n")
        var index = 0
        var number = 0
        while number < lines.count {
            let line = lines[number]
            guard line.trimmingCharacters(in: .whitespaces) == "```swift" else {
                number += 1
                continue
            }
            let indent = String(line.prefix { $0 == " " })
            var body: [String] = []
            var end = number + 1
            while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(lines[end].hasPrefix(indent) ? String(lines[end].dropFirst(indent.count)) : lines[end])
                end += 1
            }
            index += 1
            var snippet = DocumentationSnippet(
                document: document, line: number + 1, index: index, code: body.joined(separator: "\n"))
            if number > 0 { snippet.apply(marker: lines[number - 1]) }
            if snippet.kind == .sdk, snippet.imports.contains(where: { !Self.sdkModules.contains($0) }) {
                snippet.kind = .server
            }
            snippets.append(snippet)
            number = end + 1
        }
        return snippets
    }

    /// The modules an SDK snippet may import: the SDK package's products and the system's.
    static let sdkModules: Set<String> = ["Foundation", "FoundationNetworking", "Sesame", "SesameLoopback", "SesameResourceServer", "SesameProtocol"]

    var imports: [String] {
        code.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("import ") else { return nil }
            let module = line.dropFirst("import ".count).prefix { $0 != "/" }
            return module.trimmingCharacters(in: .whitespaces)
        }
    }

    /// Reads `<!-- snippet: … -->`.
    mutating func apply(marker line: String) {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("<!-- snippet:"), text.hasSuffix("-->") else { return }
        let options = text.dropFirst("<!-- snippet:".count).dropLast(3).split(separator: ";")
        for option in options.map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if option.hasPrefix("given ") {
                given = option.dropFirst("given ".count).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            } else if option == "file" {
                fileScope = true
            } else if option == "main actor" {
                mainActor = true
            } else if option == "apple" {
                kind = .apple
            } else if option.hasPrefix("skip") {
                kind = .skipped
                skipReason = option.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
            }
        }
    }

    /// `README_1`, `docs_resource-server_2` → a Swift identifier.
    var name: String {
        // Sources/Sesame/Sesame.docc/GettingStarted.md → Sesame_GettingStarted
        var parts = (document as NSString).deletingPathExtension.split(separator: "/").map(String.init)
        if parts.first == "Sources", parts.count == 4 { parts = [parts[1], parts[3]] }
        let base = parts.joined(separator: "_")
        let identifier = base.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
        return "\(identifier)_\(index)"
    }

    /// The generated source file.
    var source: String {
        var out = "// Generated from \(document), Swift block \(index), by DocumentationSnippetTests.\n"
        out += "// Edit the document, then: SESAME_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests\n"
        let body = code.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("import ") }
            .drop { $0.trimmingCharacters(in: .whitespaces).isEmpty }
        var imports = imports
        if imports.isEmpty { imports = kind == .server ? ["Foundation"] : ["Foundation", "Sesame"] }
        if kind == .apple {
            // Type-checked inside the Sesame module (with the declaration files): no self-import.
            out += "#if SESAME_APPLE_DECLARATIONS\n"
            imports = imports.filter { $0 != "Sesame" } + ["AuthenticationServices"]
        }
        var seen = Set<String>()
        for module in imports where seen.insert(module).inserted { out += "import \(module)\n" }
        out += "\n"
        if fileScope {
            out += body.joined(separator: "\n") + "\n"
        } else {
            if mainActor { out += "@MainActor\n" }
            out += "func snippet_\(name)(\(given.joined(separator: ", "))) async throws {\n"
            for line in body { out += line.isEmpty ? "\n" : "    \(line)\n" }
            out += "}\n"
        }
        if kind == .apple { out += "#endif\n" }
        return out
    }
}
