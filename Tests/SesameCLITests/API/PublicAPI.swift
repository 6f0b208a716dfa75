import ChildProcess
import Foundation
import Synchronization
import Testing

/// The public surface of the library products, read from the built modules' symbol graphs
/// (`swift-symbolgraph-extract`, shipped with the toolchain): one line per public declaration,
/// and whether it has a doc comment.
struct PublicAPI {
    /// The modules whose surface apps and APIs compile against, with the baseline's file.
    static let modules = [
        "SesameProtocol", "SesameJOSE", "Sesame", "SesameResourceServer", "SesameResourceServerHummingbird",
        "SesameResourceServerSQL", "SesameNIOTransport",
    ]
    static let baselineDirectory = PackageLayoutTests.root.appendingPathComponent("API")

    struct Declaration: Hashable, Comparable {
        var line: String
        var documented: Bool
        static func < (a: Declaration, b: Declaration) -> Bool { a.line < b.line }
    }

    /// Why the surface could not be read here (no debug build, no extractor); the test then
    /// skips outside CI.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// The build directory of `swift build`/`swift test` (debug), holding `Modules/`.
    static func buildDirectory() throws -> URL {
        let build = PackageLayoutTests.root.appendingPathComponent(".build")
        let candidates = ((try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? [])
            .map { build.appendingPathComponent($0).appendingPathComponent("debug") }
        guard let found = candidates.first(where: {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("Modules/Sesame.swiftmodule").path)
        }) else { throw Unavailable(description: "no debug build with Modules/Sesame.swiftmodule under .build") }
        return found.resolvingSymlinksInPath()
    }

    /// `triple` of the build directory (`.build/<triple>/debug`).
    static func triple(of directory: URL) -> String {
        directory.deletingLastPathComponent().lastPathComponent
    }

    /// The declarations of `module`, sorted, from its symbol graph (and its extensions of other
    /// modules' types).
    static func declarations(of module: String) async throws -> [Declaration] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-api-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        try await extractSymbolGraphs(of: module, into: output)
        var declarations = Set<Declaration>()
        for file in try FileManager.default.contentsOfDirectory(atPath: output.path) where file.hasSuffix(".symbols.json") {
            let data = try Data(contentsOf: output.appendingPathComponent(file))
            let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
            for symbol in graph["symbols"] as? [[String: Any]] ?? [] {
                declarations.insert(declaration(symbol))
            }
        }
        return declarations.sorted()
    }

    /// Writes `module`'s public symbol graphs into `output` with `swift-symbolgraph-extract`.
    static func extractSymbolGraphs(of module: String, into output: URL) async throws {
        let build = try buildDirectory()
        guard let extractor = tool("swift-symbolgraph-extract") else {
            throw Unavailable(description: "swift-symbolgraph-extract is not next to swift on PATH")
        }
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let arguments = [
            "-module-name", module, "-target", triple(of: build), "-I", build.appendingPathComponent("Modules").path,
            "-minimum-access-level", "public", "-skip-inherited-docs", "-output-dir", output.path,
        ] + clangArguments(build: build)
        let (status, log) = try await run(extractor, arguments)
        guard status == .exited(0) else {
            throw Unavailable(description: "swift-symbolgraph-extract failed for \(module): \(log.prefix(2000))")
        }
    }

    /// Where the C modules (swift-crypto's BoringSSL, NIO's shims) are: their module maps and the
    /// dependencies' include folders. Walked once per test run, not once per module.
    static func clangArguments(build: URL) -> [String] {
        clangArgumentCache.withLock { cached in
            if let cached { return cached }
            var arguments: [String] = []
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []
            where entry.hasSuffix(".build") {
                let map = build.appendingPathComponent(entry).appendingPathComponent("module.modulemap")
                if FileManager.default.fileExists(atPath: map.path) { arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
            }
            let checkouts = PackageLayoutTests.root.appendingPathComponent(".build/checkouts")
            if let walker = FileManager.default.enumerator(atPath: checkouts.path) {
                while let path = walker.nextObject() as? String {
                    if path.hasSuffix("/include"), path.contains("/Sources/") {
                        arguments += ["-Xcc", "-I" + checkouts.appendingPathComponent(path).path]
                    }
                }
            }
            cached = arguments
            return arguments
        }
    }

    private static let clangArgumentCache = Mutex<[String]?>(nil)

    /// Runs a tool to completion; its status and its output and error text.
    static func run(_ tool: String, _ arguments: [String]) async throws -> (SpawnedChild.Termination, String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-tool-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let child = try SpawnedChild.spawn(
            tool, arguments: arguments, environment: ProcessInfo.processInfo.environment,
            input: .file("/dev/null"), output: .file(log.path), error: .file(log.path))
        var status = SpawnedChild.Termination.exited(0)
        for await termination in child.termination() { status = termination }
        return (status, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    /// `kind path: declaration`, e.g. `func AccessTokenValidator.validate(_:requiredScopes:): …`.
    static func declaration(_ symbol: [String: Any]) -> Declaration {
        let kind = ((symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "?")
            .replacingOccurrences(of: "swift.", with: "")
        let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
        let fragments = (symbol["declarationFragments"] as? [[String: Any]] ?? []).compactMap { $0["spelling"] as? String }
        let declaration = fragments.joined().split(whereSeparator: \.isNewline).map {
            $0.trimmingCharacters(in: .whitespaces)
        }.joined(separator: " ")
        let commented = ((symbol["docComment"] as? [String: Any])?["lines"] as? [Any])?.isEmpty == false
        // A declaration without a source location is the compiler's (a synthesized `==`,
        // `hashValue`, `init(rawValue:)`, coding keys), and one located in a dependency's
        // checkout is that package's default implementation: nothing of ours to comment.
        let uri = (symbol["location"] as? [String: Any])?["uri"] as? String
        let synthesized = uri == nil || uri?.contains("/.build/checkouts/") == true
        return Declaration(line: "\(kind) \(path): \(declaration)", documented: commented || synthesized)
    }

    static func tool(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
