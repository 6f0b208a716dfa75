import Foundation
import Testing

/// Inside each module, the top-level folders are layers: each folder uses only folders declared
/// below it in ``DeclaredLayers`` (the README's module map describes them bottom-up), so there is
/// no cycle of any length. A folder "uses" another when a file in it names a type declared at
/// the top level of a file in the other (comments and string literals left out). A failure
/// names the arrow that goes up, or the whole cycle with the types that make each arrow.
@Suite("Folders inside a module are layers: one way, no cycle of any length")
struct FolderDependencyTests {
    static let sources = PackageLayoutTests.root.appendingPathComponent("Sources")

    @Test("the graph finds a two-way arrow as a cycle, names the types on each side, and skips comments and strings")
    func finder() {
        let twoWay = FolderGraph(files: [
            .init(folder: "HTTP", text: "struct EndpointFailure {}\nlet x = Router()"),
            .init(folder: "Server", text: "struct Router { let failure: EndpointFailure }"),
            .init(folder: "Policy", text: "struct Validator { let failure: EndpointFailure }"),
        ])
        #expect(twoWay.graph.cycles == [["HTTP", "Server", "HTTP"]])
        #expect(twoWay.uses("HTTP", "Server") == ["Router"] && twoWay.uses("Server", "HTTP") == ["EndpointFailure"])

        let mentionedOnly = FolderGraph(files: [
            .init(folder: "HTTP", text: "struct EndpointFailure {}\nlet x = Router()"),
            .init(folder: "Server", text: "struct Router {}\n// EndpointFailure\nlet y = \"EndpointFailure\""),
            .init(folder: "Policy", text: "struct Validator {\n    struct Router {}\n    let failure: EndpointFailure\n}"),
        ])
        #expect(mentionedOnly.graph.cycles.isEmpty)

        // Quotes inside an interpolation do not end the literal early, and code after it counts.
        let interpolated = FolderGraph(files: [
            .init(folder: "HTTP", text: "struct EndpointFailure {}\nlet x = Router()"),
            .init(
                folder: "Server",
                text: "struct Router {}\nlet t = \"a \\(f(\"b\") ? \"c\" : \"d\") e\"\nlet u = EndpointFailure()"),
        ])
        #expect(interpolated.uses("Server", "HTTP") == ["EndpointFailure"])
        #expect(interpolated.graph.cycles.count == 1)
        #expect(FolderGraph.identifiers(in: "let k = Alpha.member(Beta.c)") == ["Alpha", "Beta"])
        let keyed = FolderGraph.code(of: "let s = \"x\\(Alpha[\"k\"]) y\"; Omega")
        #expect(keyed.contains("Alpha") && keyed.contains("Omega") && !keyed.contains("y\""))
        let raw = FolderGraph.code(of: "let t = #\"Quoted \"q\" \\(Inner)\"#; Omega")
        #expect(!raw.contains("Inner") && !raw.contains("Quoted") && raw.contains("Omega"), "no interpolation in a raw literal without #")
        let multiline = FolderGraph.code(of: "let t = \"\"\"\nZeta \"q\" \\(Beta)\n\"\"\"; Omega")
        #expect(multiline.contains("Beta") && multiline.contains("Omega") && !multiline.contains("Zeta"))
        #expect(mentionedOnly.uses("Policy", "HTTP") == ["EndpointFailure"])
        #expect(mentionedOnly.uses("HTTP", "Policy").isEmpty, "a nested type is not a folder's declaration")
    }

    @Test("a planted cycle of three is found, with the types on each arrow; a layering has none")
    func plantedCycleOfThree() {
        // Configuration → PIN → Session → Configuration: no two folders use each other, so a
        // check of two-way pairs passes; the cycle finder must not.
        let planted = FolderGraph(files: [
            .init(folder: "Configuration", text: "struct Settings { let kdf: KeyDerivation }"),
            .init(folder: "PIN", text: "struct KeyDerivation {}\nlet p = Profile()"),
            .init(folder: "Session", text: "struct Profile { let s: Settings }"),
            .init(folder: "Time", text: "struct Clock {}"),
        ])
        let graph = planted.graph
        #expect(graph.cycles.allSatisfy { $0.count > 3 }, "no two folders use each other")
        #expect(graph.components == [["Configuration", "PIN", "Session"]])
        #expect(graph.cycles == [["Configuration", "PIN", "Session", "Configuration"]])
        #expect(
            graph.describe(cycle: graph.cycles[0])
                == "Configuration → PIN (KeyDerivation) → Session (Profile) → Configuration (Settings)")
        #expect(!graph.upwardArrows(order: ["Time", "Configuration", "PIN", "Session"]).isEmpty)

        // Turn one arrow around and the three are layers.
        let layered = FolderGraph(files: [
            .init(folder: "Configuration", text: "struct Settings {}\nstruct KeyDerivation {}"),
            .init(folder: "PIN", text: "let k = KeyDerivation()\nlet p = Profile()"),
            .init(folder: "Session", text: "struct Profile { let s: Settings }"),
        ]).graph
        #expect(layered.cycles.isEmpty)
        #expect(layered.upwardArrows(order: ["Configuration", "Session", "PIN"]).isEmpty)
        #expect(layered.upwardArrows(order: ["Configuration", "PIN", "Session"]) == [
            "PIN → Session (Profile) goes up the declared order"
        ])
        // A longer cycle is reported whole, through its smallest name.
        let five = DependencyGraph(["A": ["B"], "B": ["C"], "C": ["D"], "D": ["E"], "E": ["A"], "F": ["A"]])
        #expect(five.cycles == [["A", "B", "C", "D", "E", "A"]])
    }

    @Test("every folder of every module is declared, and each uses only folders below it", arguments: DeclaredLayers.modules)
    func layered(module: String) throws {
        let graph = try FolderGraph(module: Self.sources.appendingPathComponent(module))
        let declared = try #require(DeclaredLayers.folders[module], "\(module) has no declared folder order")
        #expect(graph.folderCount > 0, "\(module) was not read")
        let found = graph.folders
        for folder in found.subtracting(declared).sorted() {
            Issue.record("\(module)/\(folder) is not in DeclaredLayers.folders: place it in the order")
        }
        for folder in Set(declared).subtracting(found).sorted() {
            Issue.record("\(module)/\(folder) is declared but has no Swift file")
        }
        #expect(Set(declared).count == declared.count, "\(module) declares a folder twice")
        for cycle in graph.graph.cycles {
            Issue.record("\(module) has a cycle: \(graph.graph.describe(cycle: cycle))")
        }
        for arrow in graph.graph.upwardArrows(order: declared) {
            Issue.record("\(module): \(arrow)")
        }
        for arrow in graph.graph.arrowsAmong(DeclaredLayers.siblingFeatures[module] ?? []) {
            Issue.record("\(module): \(arrow): sibling features may not use each other; move what both need below them")
        }
    }

    @Test("one level down and deeper, the subfolders of every folder have no cycle between them or with their parent's files",
        arguments: DeclaredLayers.modules)
    func everyDepth(module: String) throws {
        let root = Self.sources.appendingPathComponent(module)
        var checked = 0
        for folder in try Self.nestedFolders(under: root) {
            let graph = try FolderGraph(module: folder)
            guard graph.folderCount > 1 else { continue }
            checked += 1
            let name = module + folder.path.dropFirst(root.path.count)
            for cycle in graph.graph.cycles {
                Issue.record("\(name) has a cycle (\".\" is its own files): \(graph.graph.describe(cycle: cycle))")
            }
        }
        if module == "SesameServer" { #expect(checked > 0, "SesameServer has nested folders to check") }
    }

    @Test("the SDK's client core (Client/) uses at most DeclaredLayers.clientFolderCap of the SDK's folders; the capabilities sit above it")
    func clientCore() throws {
        let graph = try FolderGraph(module: Self.sources.appendingPathComponent("Sesame"))
        let used = graph.folders.filter { $0 != "Client" && graph.graph.uses("Client", $0) != nil }.sorted()
        #expect(used.count <= DeclaredLayers.clientFolderCap, "Client/ uses \(used.count) folders: \(used)")
        for capability in DeclaredLayers.siblingFeatures["Sesame"] ?? [] {
            #expect(graph.graph.uses("Client", capability) == nil, "Client/ reaches up into \(capability)/")
        }
    }

    @Test("the sibling-feature rule finds an arrow between two features, and none to a shared folder below them")
    func siblings() {
        let graph = FolderGraph(files: [
            .init(folder: "HTTP", text: "struct EndpointFailure {}"),
            .init(folder: "PIN", text: "struct PINRoutes { let f: EndpointFailure }"),
            .init(folder: "Passkeys", text: "struct PasskeyRoutes { let p: PINRoutes }"),
        ]).graph
        #expect(graph.arrowsAmong(["PIN", "Passkeys"]) == ["Passkeys → PIN (PINRoutes)"])
        #expect(graph.arrowsAmong(["HTTP", "Passkeys"]).isEmpty)
    }

    /// Every folder under `root` (at any depth) that has a folder inside it, `root` excluded
    /// (its top level is the declared order's business).
    static func nestedFolders(under root: URL) throws -> [URL] {
        var result: [URL] = []
        func visit(_ folder: URL, top: Bool) throws {
            let children = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey])
                .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            if !top, !children.isEmpty { result.append(folder) }
            for child in children { try visit(child, top: false) }
        }
        try visit(root, top: true)
        return result
    }
}

/// Which top-level folders of a module name types declared in which others.
struct FolderGraph {
    struct File {
        var folder: String
        var text: String
    }

    /// The folders and their arrows (the types each uses from another), for cycles and the
    /// declared order.
    private(set) var graph = DependencyGraph()
    var folders: Set<String> { graph.nodes }
    var folderCount: Int { folders.count }

    init(files: [File]) {
        var owners: [String: Set<String>] = [:]
        for file in files {
            graph.add(node: file.folder)
            for name in Self.topLevelTypes(in: file.text) { owners[name, default: []].insert(file.folder) }
        }
        for file in files {
            for word in Self.identifiers(in: Self.code(of: file.text)) {
                for owner in owners[word] ?? [] where owner != file.folder {
                    graph.add(file.folder, owner, because: [word])
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
        (graph.uses(from, to) ?? []).sorted()
    }

    /// Types declared at column 0 (nested types are their outer type's business).
    static func topLevelTypes(in text: String) -> [String] {
        let declaration = /^(?:(?:public|internal|fileprivate|private|package|final|indirect)\s+)*(?:struct|enum|class|actor|protocol|typealias)\s+([A-Z]\w*)/
            .anchorsMatchLineEndings()
        return text.matches(of: declaration).map { String($0.output.1) }
    }

    /// The text without comments and without the text of string literals, keeping the code
    /// of their interpolations (`"\(user.name) left"` keeps `user.name`), which may hold quotes
    /// of its own; multi-line (`"""`) and raw (`#"…"#`) literals included.
    static func code(of text: String) -> String {
        let characters = Array(text)
        var code = ""
        /// The literals being read, innermost last: how they close, and the open parentheses of
        /// the interpolation currently being read in each (0: reading the literal's text).
        var literals: [(close: String, hashes: Int, parentheses: Int)] = []
        var index = 0
        func starts(with token: String, at position: Int) -> Bool {
            let token = Array(token)
            return position + token.count <= characters.count && Array(characters[position..<position + token.count]) == token
        }
        while index < characters.count {
            let character = characters[index]
            if let literal = literals.last, literal.parentheses == 0 {
                // Inside a literal's text.
                let closing = literal.close + String(repeating: "#", count: literal.hashes)
                if starts(with: closing, at: index) {
                    literals.removeLast()
                    index += closing.count
                } else if starts(with: "\\" + String(repeating: "#", count: literal.hashes) + "(", at: index) {
                    literals[literals.count - 1].parentheses = 1
                    index += literal.hashes + 2
                } else if character == "\\" && literal.hashes == 0 {
                    index += 2
                } else {
                    index += 1
                }
                continue
            }
            // Code (at the top level or in an interpolation).
            if starts(with: "//", at: index) {
                while index < characters.count && characters[index] != "\n" { index += 1 }
                continue
            }
            if starts(with: "/*", at: index) {
                index += 2
                while index < characters.count && !starts(with: "*/", at: index) { index += 1 }
                index += 2
                continue
            }
            var hashes = 0
            while starts(with: "#", at: index + hashes) { hashes += 1 }
            if starts(with: "\"", at: index + hashes) {
                let multiline = starts(with: "\"\"\"", at: index + hashes)
                literals.append((close: multiline ? "\"\"\"" : "\"", hashes: hashes, parentheses: 0))
                index += hashes + (multiline ? 3 : 1)
                continue
            }
            if !literals.isEmpty {
                if character == "(" { literals[literals.count - 1].parentheses += 1 }
                if character == ")" {
                    literals[literals.count - 1].parentheses -= 1
                    if literals[literals.count - 1].parentheses == 0 {
                        index += 1
                        continue
                    }
                }
            }
            code.append(character)
            index += 1
        }
        return code
    }

    /// Capitalized identifiers, also before a `.` (`LoginThrottle.addressKey`): simple word
    /// boundaries, since Unicode's (the default) join `A.b` into one word.
    static func identifiers(in code: String) -> Set<String> {
        Set(code.matches(of: /\b[A-Z]\w*\b/.wordBoundaryKind(.simple)).map { String($0.output) })
    }
}
