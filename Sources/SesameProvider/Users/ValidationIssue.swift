import SesameStore

/// One broken rule of an administrator's input (client metadata, a user, a provider): the field,
/// named as the wire or the seed file names it, and what is wrong with it, phrased to finish
/// "<field> …" and say what to do.
public struct ValidationIssue: Error, Sendable, Equatable {
    public var field: String
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }
}
