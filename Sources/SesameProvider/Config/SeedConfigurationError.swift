import SesameStore

/// A seed file problem: the file, the entry and field (`clients[0].grant_types`) and what to do.
/// YAML syntax errors also carry the line and column libyaml reports; the description is then
/// `file:line:column: reason`, the form compilers use, so editors can jump to it.
public struct SeedConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// Path of the offending value, e.g. `users[1].email`; empty for the whole file.
    public var path: String
    public var reason: String
    /// Line of a YAML syntax error, from 1; nil for other errors.
    public var line: Int?
    /// Column of a YAML syntax error, from 1, counted in Unicode scalars (as libyaml does).
    public var column: Int?

    public init(file: String, path: String, reason: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.path = path
        self.reason = reason
        self.line = line
        self.column = column
    }

    /// A Codable decoder's error, worded the same whichever format was decoded.
    package init(decoding error: DecodingError, file: String) {
        func render(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text
        }
        switch error {
        case .typeMismatch(let type, let context):
            let reason = SeedValueShape(decodedType: type)?.wrongType ?? "must be of type \(type)"
            self.init(file: file, path: render(context.codingPath), reason: reason)
        case .valueNotFound(let type, let context):
            let expected = SeedValueShape(decodedType: type)?.expectation ?? "a \(type)"
            self.init(file: file, path: render(context.codingPath), reason: "must be \(expected), not null")
        case .keyNotFound(let key, let context):
            self.init(
                file: file, path: render(context.codingPath + [key]), reason: "is required; add it")
        case .dataCorrupted(let context):
            self.init(file: file, path: render(context.codingPath), reason: context.debugDescription)
        @unknown default:
            self.init(file: file, path: "", reason: "\(error)")
        }
    }

    public var description: String {
        var location = file
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        return path.isEmpty ? "\(location): \(reason)" : "\(location): \(path): \(reason)"
    }
}
