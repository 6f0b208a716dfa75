import Foundation

/// Keeps secrets out of logs (Auth0 `SensitiveDataRedactor`).
///
/// The SDK never interpolates access, refresh or ID tokens, authorization codes, PKCE verifiers,
/// `state`, `nonce` or client secrets into log messages or metadata; when a log line has to
/// refer to one it uses ``redact(_:)``, which keeps only the length.
public enum Redaction {
    /// `"<redacted:LEN>"`: the secret's length, never its content.
    public static func redact(_ secret: String?) -> String {
        guard let secret else { return "<none>" }
        return "<redacted:\(secret.utf8.count)>"
    }
}

/// A value that prints as ``Redaction/redact(_:)`` in logs, string interpolation and dumps.
public struct Redacted<Value: Sendable>: Sendable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The secret itself; read it only to send it where it belongs.
    public let value: Value

    /// Wraps `value` so that printing it shows only its length.
    public init(_ value: Value) { self.value = value }

    /// ``Redaction/redact(_:)`` of the value's text: its length, never its content.
    public var description: String { Redaction.redact(String(describing: value)) }
    /// The same as `description`, so `debugPrint` and `String(reflecting:)` do not reveal the value.
    public var debugDescription: String { description }
    /// A mirror without children, so `dump` and debuggers' reflection do not reveal the value.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
