import ArgumentParser
import Foundation
import SesameServer

/// `sesame serve`'s metrics switches: `/metrics` is off unless one of them turns it on, and
/// never public by default.
struct MetricsOptions: ParsableArguments {
    @Option(
        name: .customLong("metrics-port"),
        help: ArgumentHelp(
            "Serve /metrics (Prometheus text format) without a token on this port of --host (0 picks a free one).",
            discussion: "Keep the port on a private network: whoever reaches it reads the metrics."))
    var port: Int?

    @Option(
        name: .customLong("metrics-token-file"),
        help: ArgumentHelp(
            "Serve /metrics on the main port to requests with 'Authorization: Bearer <token>', the token being this file's first line.",
            discussion: "Or set SESAME_METRICS_TOKEN. A token is never read from the command line, where other users of the machine could see it."))
    var tokenFile: String?

    /// What the options and `SESAME_METRICS_TOKEN` ask for; `nil`: no metrics.
    func exposure() throws -> MetricsExposure? {
        let environment = ProcessInfo.processInfo.environment["SESAME_METRICS_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        var token = environment
        if let tokenFile {
            guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                throw CLIError("cannot read --metrics-token-file '\(tokenFile)'", hint: "Check the path and its permissions.")
            }
            token = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        if let port {
            guard (0...65535).contains(port) else {
                throw CLIError("--metrics-port must be between 0 and 65535", hint: "e.g. --metrics-port 9464")
            }
            guard token == nil else {
                throw CLIError(
                    "--metrics-port and a metrics token both ask for /metrics",
                    hint: "Choose one: a private metrics port, or the token on the main port.")
            }
            return .port(port)
        }
        guard let token else { return nil }
        guard token.count >= 16 else {
            throw CLIError(
                "the metrics token is too short (\(token.count) characters)",
                hint: "Use at least 16 random characters, e.g. from: openssl rand -hex 32")
        }
        return .bearerToken(token)
    }
}
