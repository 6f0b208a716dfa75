/// What stopped a scripted sign-in, in one line, with what to check.
public struct ScriptedBrowserError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var hint: String?

    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    public var description: String { hint.map { "\(message) (\($0))" } ?? message }
}
