import SesameStore
import Foundation
import Yams

/// The syntax of a seed file (``SeedConfiguration``). Both formats go through the same
/// structure check (``SeedStructure``), the same Codable types and the same validation, so the
/// same content gives an equal configuration or the same error.
public enum SeedFileFormat: String, Sendable, CaseIterable {
    /// JSON (RFC 8259), read with `JSONSerialization` and `JSONDecoder`.
    case json
    /// YAML 1.1 (https://yaml.org/spec/1.1/) as libyaml reads it, through Yams' `YAMLDecoder`.
    /// String keys take the text as written: `password: 0123` is `"0123"`, `client_id: 123`
    /// is `"123"`, `name: no` is `"no"`.
    case yaml

    /// By the file name's extension: `.json` is JSON, `.yaml` and `.yml` are YAML (any case).
    /// Otherwise by content: JSON when the first byte after white space (and a UTF-8 byte
    /// order mark) is `{`, YAML else.
    public init(fileName: String, contents: Data) {
        switch URL(fileURLWithPath: fileName).pathExtension.lowercased() {
        case "json":
            self = .json
        case "yaml", "yml":
            self = .yaml
        default:
            let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
            let text = contents.starts(with: byteOrderMark) ? contents.dropFirst(byteOrderMark.count) : contents[...]
            let blank: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
            self = text.first { !blank.contains($0) } == UInt8(ascii: "{") ? .json : .yaml
        }
    }

    /// "a JSON object" or "a mapping", for messages about the file's shape.
    package var anObject: String { self == .json ? "a JSON object" : "a mapping" }
    /// "an array" or "a list".
    package var aList: String { self == .json ? "an array" : "a list" }
    /// "arrays" or "lists".
    package var lists: String { self == .json ? "arrays" : "lists" }

    /// Parses `data`; syntax errors name `source` (and, for YAML, the line and column).
    package func parse(_ data: Data, source: String) throws(SeedConfigurationError) -> SeedDocument {
        switch self {
        case .json: try Self.parseJSON(data, source: source)
        case .yaml: try Self.parseYAML(data, source: source)
        }
    }

    private static func parseJSON(_ data: Data, source: String) throws(SeedConfigurationError) -> SeedDocument {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw SeedConfigurationError(
                file: source, path: "",
                reason: "is not valid JSON (\(error.localizedDescription)); fix the syntax, "
                    + "or write YAML in a file whose name ends in .yaml or .yml")
        }
        return SeedDocument(structure: SeedStructure(json: json)) {
            try JSONDecoder().decode(SeedConfiguration.self, from: data)
        }
    }

    private static func parseYAML(_ data: Data, source: String) throws(SeedConfigurationError) -> SeedDocument {
        guard let text = String(data: data, encoding: .utf8) else {
            throw SeedConfigurationError(file: source, path: "", reason: "is not UTF-8 text; save it as UTF-8")
        }
        let root: Node?
        do {
            // The resolver `YAMLDecoder.decode(_:from: String)` uses: merge keys only, so
            // scalars keep their text until a Codable type asks for a Bool or an Int.
            root = try Yams.compose(yaml: text, Resolver.basic.appending(.merge))
        } catch let error as YamlError {
            throw syntaxError(error, source: source)
        } catch {
            throw SeedConfigurationError(file: source, path: "", reason: "is not valid YAML (\(error))")
        }
        let structure = try SeedStructure(yaml: root, path: "", source: source)
        return SeedDocument(structure: structure) {
            guard let root else { return SeedConfiguration() }  // an empty file fails the structure check first
            return try YAMLDecoder().decode(SeedConfiguration.self, from: root)
        }
    }

    /// A libyaml error as one line: where (line and column from 1, as libyaml counts), what,
    /// and the usual fixes.
    private static func syntaxError(_ error: YamlError, source: String) -> SeedConfigurationError {
        let advice = "check the indentation there (spaces, not tabs) and quote values that contain \": \" or \" #\""
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let during = context.map { " \($0.text) at line \($0.mark.line), column \($0.mark.column)" } ?? ""
            return SeedConfigurationError(
                file: source, path: "", reason: "is not valid YAML: \(problem)\(during); \(advice)",
                line: mark.line, column: mark.column)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            return SeedConfigurationError(
                file: source, path: "",
                reason: "is not valid YAML: the key \(keys) appears twice in one mapping; keep one",
                line: context.mark.line, column: context.mark.column)
        case .reader(let problem, let offset, _, let yaml):
            var line: Int?
            var column: Int?
            if let offset, offset <= yaml.count {
                let before = yaml.prefix(offset)
                let lineStart = before.lastIndex(where: \.isNewline).map(before.index(after:)) ?? before.startIndex
                line = before.count(where: \.isNewline) + 1
                column = before.distance(from: lineStart, to: before.endIndex) + 1
            }
            return SeedConfigurationError(
                file: source, path: "", reason: "is not valid YAML: \(problem); remove or replace that character",
                line: line, column: column)
        default:
            return SeedConfigurationError(file: source, path: "", reason: "is not valid YAML (\(error))")
        }
    }
}

/// A parsed seed file: its structure, for ``SeedStructure/check(format:source:)``, and how to
/// decode it with its format's Codable decoder.
package struct SeedDocument {
    package var structure: SeedStructure
    package var decode: () throws -> SeedConfiguration
}
