import Foundation
import Testing

/// The README's module graph (the block after `<!-- module-graph -->`) is the manifest's: every
/// module under `Sources/` with exactly the package's own modules it depends on.
@Suite("README module graph matches Package.swift")
struct ModuleGraphTests {
    /// `Module <- A, B` lines; a module without `<-` depends on none of the package's modules.
    static func graph(fromREADME text: String) throws -> [String: Set<String>] {
        let marker = try #require(text.range(of: "<!-- module-graph -->"), "the README has no module graph")
        let rest = text[marker.upperBound...]
        let open = try #require(rest.range(of: "```\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        var graph: [String: Set<String>] = [:]
        for line in rest[open.upperBound..<close.lowerBound].split(separator: "\n") {
            let parts = line.split(separator: "<-", maxSplits: 1)
            let module = parts[0].trimmingCharacters(in: .whitespaces)
            let dependencies = parts.count > 1
                ? parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } : []
            graph[module] = Set(dependencies)
        }
        return graph
    }

    /// The manifest's targets under `Sources/` and their dependencies on other such targets (the
    /// docs' compiled code blocks, `DocSnippets/`, and `Examples/` use the modules from outside).
    static func graph(fromManifest manifest: [String: Any]) -> [String: Set<String>] {
        let targets = manifest["targets"] as? [[String: Any]] ?? []
        let sourceTargets = targets.filter { ($0["type"] as? String) == "regular" || ($0["type"] as? String) == "executable" }
            .filter { target in
                (target["path"] as? String).map { path in !["Tests/", "DocSnippets/", "Examples/"].contains { path.hasPrefix($0) } } ?? true
            }
        let names = Set(sourceTargets.compactMap { $0["name"] as? String })
        var graph: [String: Set<String>] = [:]
        for target in sourceTargets {
            guard let name = target["name"] as? String else { continue }
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { entry -> String? in
                let value = (entry["byName"] ?? entry["target"]) as? [Any]
                return value?.first as? String
            }
            graph[name] = Set(dependencies).intersection(names)
        }
        return graph
    }

    @Test("the README parser reads modules with and without dependencies")
    func parser() throws {
        let text = "intro\n<!-- module-graph -->\n```\nA\nB  <- A\nC <- A, B\n```\nmore ```\nD <- C\n```"
        #expect(try Self.graph(fromREADME: text) == ["A": [], "B": ["A"], "C": ["A", "B"]])
    }

    @Test("modules are layers: each depends only on modules declared below it, no cycle of any length")
    func layered() async throws {
        let graph = DependencyGraph(Self.graph(fromManifest: try await PackageLayoutTests.dumpPackage()))
        #expect(Set(DeclaredLayers.modules) == graph.nodes, "declare every module under Sources/ in DeclaredLayers.modules")
        for cycle in graph.cycles {
            Issue.record("module cycle: \(graph.describe(cycle: cycle))")
        }
        for arrow in graph.upwardArrows(order: DeclaredLayers.modules) {
            Issue.record("\(arrow)")
        }
    }

    @Test("the provider's logic (SesameProvider), its tests and the SDK know nothing of HTTP servers: no Hummingbird, no SwiftNIO")
    func noWebFramework() async throws {
        let manifest = try await PackageLayoutTests.dumpPackage()
        let targets = manifest["targets"] as? [[String: Any]] ?? []
        let providerTests = try #require(targets.first { $0["name"] as? String == "SesameProviderTests" })
        let testedWith = (providerTests["dependencies"] as? [[String: Any]] ?? []).compactMap {
            (($0["byName"] ?? $0["target"]) as? [Any])?.first as? String
        }
        #expect(Set(testedWith).isDisjoint(with: ["SesameServer", "SesameTesting", "SesameCLI"]), "the core's tests use \(testedWith)")
        for module in ["SesameProvider", "Sesame", "SesameProtocol", "SesameProviderTests"] {
            let target = try #require(targets.first { $0["name"] as? String == module }, "\(module) is not in Package.swift")
            let products = (target["dependencies"] as? [[String: Any]] ?? []).compactMap {
                ($0["product"] as? [Any])?.first as? String
            }
            #expect(!products.contains { $0.hasPrefix("Hummingbird") || $0.hasPrefix("NIO") }, "\(module) depends on \(products)")
            let folder = PackageLayoutTests.root.appendingPathComponent(module.hasSuffix("Tests") ? "Tests/\(module)" : "Sources/\(module)")
            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                let text = try String(contentsOf: url, encoding: .utf8)
                let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.hasPrefix("@_exported import ") }
                for line in imports where line.contains("Hummingbird") || line.contains("import NIO") {
                    Issue.record("\(url.lastPathComponent): \(line)")
                }
            }
        }
    }

    /// Issue #30: the SDK runs where apps run (iOS 15, macOS 12), so it uses Sesame's own lock
    /// (`LockedState`) instead of the `Synchronization` module (iOS 18, macOS 15).
    @Test("the SDK's modules use no Synchronization (Mutex, Atomic): they must run on iOS 15")
    func noSynchronizationInTheSDK() throws {
        for module in ["SesameProtocol", "SesameJOSE", "Sesame", "SesameLoopback"] {
            let folder = PackageLayoutTests.root.appendingPathComponent(module.hasSuffix("Tests") ? "Tests/\(module)" : "Sources/\(module)")
            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            var files = 0
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                files += 1
                let text = try String(contentsOf: url, encoding: .utf8)
                for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    if line.contains("import Synchronization") || line.contains("Mutex<") || line.contains("Atomic<") {
                        Issue.record("\(module)/\(url.lastPathComponent): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
            #expect(files > 0, "\(module) was not read")
        }
    }

    @Test("every module under Sources/ is in the README with exactly its dependencies")
    func matches() async throws {
        let readme = try String(contentsOf: PackageLayoutTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let documented = try Self.graph(fromREADME: readme)
        let dump = try await PackageLayoutTests.dumpPackage()
        let manifest = Self.graph(fromManifest: dump)
        // C modules of system libraries (a module map, no Swift): folders, not layers.
        let systemLibraries = Set(
            (dump["targets"] as? [[String: Any]] ?? []).filter { ($0["type"] as? String) == "system" }
                .compactMap { $0["name"] as? String })
        #expect(manifest.keys.contains("SesameStore") && manifest.keys.contains("SesameServer"))
        #expect(manifest["SesameServer"]?.contains("SesameStore") == true)
        for module in Set(documented.keys).union(manifest.keys).sorted() {
            #expect(documented[module] == manifest[module], "\(module): README \(documented[module].map { $0.sorted() } ?? []), Package.swift \(manifest[module].map { $0.sorted() } ?? [])")
        }
        let folders = try FileManager.default.contentsOfDirectory(
            atPath: PackageLayoutTests.root.appendingPathComponent("Sources").path)
        #expect(
            Set(folders.filter { !$0.hasPrefix(".") }) == Set(manifest.keys).union(systemLibraries),
            "every folder under Sources/ is a module")
        #expect(systemLibraries == ["CLibcrypto"], "a new system library is named in the README's tree")
    }
}
