import Logging

/// How much the SDK logs when the app gives it no `Logger` of its own
/// (``SesameConfiguration/logLevel``, JSON `log_level`). Secrets are never logged at any level.
public enum SesameLogLevel: String, Sendable, Codable, CaseIterable {
    /// Nothing.
    case off
    /// Failures the app should know about.
    case error
    /// Failures and what may become one (the default: a quiet SDK).
    case warning
    /// Sign-ins, refreshes and sign-outs, one line each.
    case info
    /// Every request's outline, for finding a problem.
    case debug

    /// The swift-log level, `nil` for ``off``.
    var swiftLogLevel: Logger.Level? {
        switch self {
        case .off: nil
        case .error: .error
        case .warning: .warning
        case .info: .info
        case .debug: .debug
        }
    }

    /// The SDK's own logger at this level (`sesame`), printing to standard error; off: none.
    func logger() -> Logger {
        guard let level = swiftLogLevel else { return Logger(label: "sesame", factory: { _ in SwiftLogNoOpLogHandler() }) }
        var logger = Logger(label: "sesame")
        logger.logLevel = level
        return logger
    }
}
