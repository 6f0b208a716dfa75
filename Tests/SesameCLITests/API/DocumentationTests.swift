import Foundation
import Testing

/// Issue #30: the DocC catalogs of the SDK and the resource-server library build with warnings as
/// errors (a broken symbol link, an article that is not reachable, a parameter without
/// documentation fail here), with `docc` from the toolchain over the built modules' symbol
/// graphs: the same as `swift package generate-documentation`, without the plugin.
@Suite("DocC catalogs build with warnings as errors")
struct DocumentationTests {
    static let catalogs = [
        ("Sesame", "Sources/Sesame/Sesame.docc"),
        ("SesameResourceServer", "Sources/SesameResourceServer/SesameResourceServer.docc"),
    ]

    @Test("the catalog builds without a warning", arguments: catalogs.map(\.0))
    func builds(module: String) async throws {
        #if !os(Linux)
            return  // the symbol graphs differ on Apple platforms (the Platform/ adapters)
        #else
            let catalog = PackageLayoutTests.root.appendingPathComponent(
                try #require(Self.catalogs.first { $0.0 == module }?.1))
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-docc-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: work) }
            let graphs = work.appendingPathComponent("graphs")
            do {
                try await PublicAPI.extractSymbolGraphs(of: module, into: graphs)
            } catch let unavailable as PublicAPI.Unavailable {
                if ProcessInfo.processInfo.environment["CI"] == "true" { throw unavailable }
                print("skipped: \(unavailable)")
                return
            }
            let docc = try #require(PublicAPI.tool("docc"), "docc is not next to swift on PATH")
            let (status, log) = try await PublicAPI.run(docc, [
                "convert", catalog.path, "--additional-symbol-graph-dir", graphs.path, "--warnings-as-errors",
                "--fallback-display-name", module, "--fallback-bundle-identifier", "org.sesame.\(module)",
                "--output-path", work.appendingPathComponent("\(module).doccarchive").path,
            ])
            let problems = log.split(separator: "\n").filter { $0.contains("warning:") || $0.contains("error:") }
            #expect(status == .exited(0), "docc convert \(module): \(problems.prefix(40).joined(separator: "\n"))")
            #expect(FileManager.default.fileExists(
                atPath: work.appendingPathComponent("\(module).doccarchive/data/documentation").path))
        #endif
    }
}
