import Foundation
import Testing

/// Inside each module, the top-level folders must depend on each other one way only (the
/// layering of the README's module map: `HTTP` below `Policy`, `Policy` below `Endpoints`, and
/// so on). A folder "uses" another when a file in it names a type declared at the top level of a
/// file in the other (comments and string literals left out). Two folders that use each other
/// fail the test, with the types that make each arrow.
@Suite("Folders inside a module depend on each other one way")
struct FolderDependencyTests {
    static let sources = PackageLayoutTests.root.appendingPathComponent("Sources")

    @Test("the graph finds a two-way arrow, names the types on each side, and skips comments and strings")
    func finder() {
        let twoWay = FolderGraph(files: [
            .init(folder: "HTTP", text: "struct EndpointFailure {}\nlet x = Router()"),
            .init(folder: "Server", text: "struct Router { let failure: EndpointFailure }"),
            .init(folder: "Policy", text: "struct Validator { let failure: EndpointFailure }"),
        ])
        let arrows = twoWay.twoWayArrows
        #expect(arrows.count == 1)
        #expect(arrows.first?.first == "HTTP" && arrows.first?.second == "Server")
        #expect(arrows.first?.firstUses == ["Router"] && arrows.first?.secondUses == ["EndpointFailure"])

        let mentionedOnly = FolderGraph(files: [
            .init(folder: "HTTP", text: "struct EndpointFailure {}\nlet x = Router()"),
            .init(folder: "Server", text: "struct Router {}\n// EndpointFailure\nlet y = \"EndpointFailure\""),
            .init(folder: "Policy", text: "struct Validator {\n    struct Router {}\n    let failure: EndpointFailure\n}"),
        ])
        #expect(mentionedOnly.twoWayArrows.isEmpty)
        #expect(mentionedOnly.uses("Policy", "HTTP") == ["EndpointFailure"])
        #expect(mentionedOnly.uses("HTTP", "Policy").isEmpty, "a nested type is not a folder's declaration")
    }

    @Test("no two top-level folders of a module use each other", arguments: [
        "SesameProtocol", "Sesame", "SesameStore", "SesameServer", "SesameLoopback", "SesameCLI",
    ])
    func oneWay(module: String) throws {
        let graph = try FolderGraph(module: Self.sources.appendingPathComponent(module))
        #expect(graph.folderCount > 1 || module == "SesameLoopback", "\(module) was not read")
        for arrow in graph.twoWayArrows {
            Issue.record("\(module): \(arrow)")
        }
    }
}

/// Which top-level folders of a module name types declared in which others.
struct FolderGraph {
    struct File {
        var folder: String
        var text: String
    }

    struct TwoWayArrow: CustomStringConvertible {
        var first: String, second: String
        var firstUses: [String], secondUses: [String]
        var description: String {
            "\(first) <-> \(second) (\(first) uses \(firstUses.joined(separator: ", ")); "
                + "\(second) uses \(secondUses.joined(separator: ", ")))"
        }
    }

    private var edges: [String: [String: Set<String>]] = [:]
    private(set) var folderCount = 0

    init(files: [File]) {
        var owners: [String: Set<String>] = [:]
        for file in files {
            for name in Self.topLevelTypes(in: file.text) { owners[name, default: []].insert(file.folder) }
        }
        folderCount = Set(files.map(\.folder)).count
        for file in files {
            for word in Self.identifiers(in: Self.code(of: file.text)) {
                for owner in owners[word] ?? [] where owner != file.folder {
                    edges[file.folder, default: [:]][owner, default: []].insert(word)
                }
            }
        }
    }

    /// Reads every `.swift` file under `module`; a file directly in the module folder counts
    /// as the folder ".".
    init(module: URL) throws {
        var files: [File] = []
        let enumerator = FileManager.default.enumerator(at: module, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let relative = url.path.dropFirst(module.path.count + 1).split(separator: "/")
            let folder = relative.count > 1 ? String(relative[0]) : "."
            files.append(File(folder: folder, text: try String(contentsOf: url, encoding: .utf8)))
        }
        self.init(files: files)
    }

    func uses(_ from: String, _ to: String) -> [String] {
        (edges[from]?[to] ?? []).sorted()
    }

    var twoWayArrows: [TwoWayArrow] {
        var result: [TwoWayArrow] = []
        for (from, targets) in edges {
            for (to, names) in targets where from < to {
                guard let back = edges[to]?[from] else { continue }
                result.append(TwoWayArrow(first: from, second: to, firstUses: names.sorted(), secondUses: back.sorted()))
            }
        }
        return result.sorted { ($0.first, $0.second) < ($1.first, $1.second) }
    }

    /// Types declared at column 0 (nested types are their outer type's business).
    static func topLevelTypes(in text: String) -> [String] {
        let declaration = /^(?:(?:public|internal|fileprivate|private|package|final|indirect)\s+)*(?:struct|enum|class|actor|protocol|typealias)\s+([A-Z]\w*)/
            .anchorsMatchLineEndings()
        return text.matches(of: declaration).map { String($0.output.1) }
    }

    /// The text without `//` comments and without string literals.
    static func code(of text: String) -> String {
        text.replacing(/\/\/[^\n]*|"(?:\\.|[^"\\\n])*"/, with: "")
    }

    static func identifiers(in code: String) -> Set<String> {
        Set(code.matches(of: /\b[A-Z]\w*\b/).map { String($0.output) })
    }
}
