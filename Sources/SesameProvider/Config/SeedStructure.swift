import SesameStore
import Foundation
import Yams

/// A seed file's structure, whatever its syntax: objects (JSON objects, YAML mappings), lists,
/// scalars and nulls. Built from `JSONSerialization` output or from a Yams `Node`, and checked
/// by ``check(format:source:)`` before a Codable decoder sees the file, because neither
/// `JSONDecoder` nor Yams' `YAMLDecoder` rejects unknown keys, and `YAMLDecoder` reads a YAML
/// null (`~`, `null`, an empty value) as the text `"~"`, `"null"` or `""` where a `String` is
/// required. Doing these checks here gives both formats the same errors.
indirect package enum SeedStructure: Equatable {
    case object([String: SeedStructure])
    case list([SeedStructure])
    case scalar
    case null

    /// The structure of a `JSONSerialization.jsonObject(with:)` result.
    package init(json value: Any) {
        switch value {
        case let object as [String: Any]: self = .object(object.mapValues(SeedStructure.init(json:)))
        case let list as [Any]: self = .list(list.map(SeedStructure.init(json:)))
        case is NSNull: self = .null
        default: self = .scalar
        }
    }

    /// The structure of a composed YAML document; `nil` (an empty document) is null. Plain
    /// `~`, `null`, `Null`, `NULL` and empty scalars are null (YAML 1.1 null type, as Yams'
    /// `YAMLDecoder` decides `decodeNil`); merge keys (`<<: *anchor`) are applied as
    /// `YAMLDecoder` applies them (https://yaml.org/type/merge.html).
    package init(yaml node: Node?, path: String, source: String) throws(SeedConfigurationError) {
        guard let node else {
            self = .null
            return
        }
        switch node {
        case .scalar(let scalar):
            self = NSNull.construct(from: scalar) == nil ? .scalar : .null
        case .sequence(let sequence):
            var items: [SeedStructure] = []
            for (index, item) in sequence.enumerated() {
                items.append(try SeedStructure(yaml: item, path: "\(path)[\(index)]", source: source))
            }
            self = .list(items)
        case .mapping(let mapping):
            self = .object(try Self.members(of: mapping, path: path, source: source))
        case .alias:
            // The parser replaces aliases by the node they name; `.alias` only appears in
            // documents built in code.
            self = .scalar
        }
    }

    /// The members of a mapping after merge keys: its own keys win, then earlier merged
    /// mappings over later ones (YAML merge key type, as `Node.Mapping.flatten()` in Yams).
    private static func members(
        of mapping: Node.Mapping, path: String, source: String
    ) throws(SeedConfigurationError) -> [String: SeedStructure] {
        var own: [String: SeedStructure] = [:]
        var merged: [String: SeedStructure] = [:]
        for (key, value) in mapping {
            guard case .scalar(let name) = key else {
                throw SeedConfigurationError(
                    file: source, path: path,
                    reason: "has a key that is a list or a mapping; keys are names such as client_id",
                    line: key.mark?.line, column: key.mark?.column)
            }
            guard name.style == .plain, name.string == "<<" else {
                let memberPath = path.isEmpty ? name.string : "\(path).\(name.string)"
                own[name.string] = try SeedStructure(yaml: value, path: memberPath, source: source)
                continue
            }
            let sources: [Node.Mapping]
            switch value {
            case .mapping(let single): sources = [single]
            case .sequence(let several) where several.allSatisfy({ $0.mapping != nil }):
                sources = several.compactMap(\.mapping)
            default:
                throw SeedConfigurationError(
                    file: source, path: path.isEmpty ? "<<" : "\(path).<<",
                    reason: "must name a mapping (<<: *anchor) or a list of them (<<: [*a, *b])",
                    line: value.mark?.line, column: value.mark?.column)
            }
            for mergedMapping in sources.reversed() {
                merged.merge(try members(of: mergedMapping, path: path, source: source)) { $1 }
            }
        }
        return merged.merging(own) { $1 }
    }
}

extension SeedStructure {
    /// Rejects what the decoders would let through or word differently per format: a root that
    /// is not an object, unknown keys (so typos do not pass silently), entries that are not
    /// objects, values of the wrong kind (``SeedValueShape``) and nulls where a value is
    /// required. Errors name the path as the decoders do, e.g. `clients[0].redirect_uri`.
    package func check(format: SeedFileFormat, source: String) throws(SeedConfigurationError) {
        let check = Check(format: format, source: source)
        guard case .object(let root) = self else {
            if self == .null, format == .yaml {
                throw check.failure("", "is empty; add a \"clients\" list, a \"users\" list, or both")
            }
            throw check.failure(
                "", "must be \(format.anObject) with \"clients\" and \"users\" \(format.lists)")
        }
        try check.rejectUnknownKeys(root, allowed: SeedConfiguration.CodingKeys.allCases.map(\.rawValue), path: "")
        try check.section("clients", root["clients"], keys: ClientSeed.CodingKeys.self)
        try check.section("users", root["users"], keys: UserSeed.CodingKeys.self)
        try check.section("providers", root["providers"], keys: ProviderSeed.CodingKeys.self)
        try check.section("apis", root["apis"], keys: APISeed.CodingKeys.self)
        if let database = root["database"], database != .null, database != .scalar {
            throw check.failure("database", "must be a text, a URL such as postgres://sesame:secret@db:5432/sesame")
        }
    }

    private struct Check {
        let format: SeedFileFormat
        let source: String

        func failure(_ path: String, _ reason: String) -> SeedConfigurationError {
            SeedConfigurationError(file: source, path: path, reason: reason)
        }

        func rejectUnknownKeys(
            _ object: [String: SeedStructure], allowed: [String], path: String
        ) throws(SeedConfigurationError) {
            for key in object.keys.sorted() where !allowed.contains(key) {
                throw failure(
                    path + key, "is not a known key; the known keys are \(allowed.joined(separator: ", "))")
            }
        }

        /// `clients` or `users`: absent or null (nothing to seed), or a list of entry objects.
        func section<Keys: SeedEntryKeys>(
            _ name: String, _ value: SeedStructure?, keys: Keys.Type
        ) throws(SeedConfigurationError) {
            guard let value, value != .null else { return }
            guard case .list(let entries) = value else {
                throw failure(name, "has the wrong type; it must be \(format.aList), each entry \(format.anObject)")
            }
            let rules = Keys.rules
            for (index, entry) in entries.enumerated() {
                let path = "\(name)[\(index)]"
                guard case .object(let members) = entry else {
                    throw failure(path, "must be \(format.anObject)")
                }
                try rejectUnknownKeys(members, allowed: rules.map(\.key), path: path + ".")
                for (key, rule) in rules {
                    try member(members[key], rule: rule, path: "\(path).\(key)")
                }
            }
        }

        /// One member's value against its rule; a missing required key is left to the decoder
        /// (`keyNotFound`, "is required; add it").
        private func member(_ value: SeedStructure?, rule: SeedKeyRule, path: String) throws(SeedConfigurationError) {
            switch (value, rule.shape) {
            case (nil, _):
                return
            case (.null?, _):
                // Null means "not set" for an optional key, as JSONDecoder's decodeIfPresent.
                if rule.isRequired { throw failure(path, "must be \(rule.shape.expectation), not null") }
            case (.scalar?, .text), (.scalar?, .number), (.scalar?, .flag):
                return
            case (.list(let items)?, .texts):
                for (index, item) in items.enumerated() {
                    switch item {
                    case .scalar: continue
                    case .null: throw failure("\(path)[\(index)]", "must be a string, not null")
                    case .list, .object: throw failure("\(path)[\(index)]", SeedValueShape.text.wrongType)
                    }
                }
            default:
                throw failure(path, rule.shape.wrongType)
            }
        }
    }
}
