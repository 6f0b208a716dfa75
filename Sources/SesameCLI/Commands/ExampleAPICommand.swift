import ArgumentParser
import ExampleAPI
import Foundation
import SesameResourceServer

/// `sesame example-api`: the example API that accepts Sesame access tokens (RFC 9068), to try
/// `sesame curl` against an API that is not the issuer.
struct ExampleAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "example-api",
        abstract: "Run the example API protected by Sesame access tokens.",
        discussion: """
            Routes: GET /health (open), GET /v1/me (any valid token), GET /v1/profile (the profile \
            scope), GET /v1/admin (the admin scope). Tokens are checked against the issuer's keys, \
            fetched through its discovery document.
            Example:
              sesame example-api --issuer http://127.0.0.1:8080 --port 8081
              sesame curl --allow-origin http://127.0.0.1:8081 http://127.0.0.1:8081/v1/me
            """)

    @Option(help: "The issuer whose access tokens the API accepts.")
    var issuer: String
    @Option(
        help: "The audience the tokens must name (default: --resource, the API's identifier as `sesame api add` registered it; without it the issuer, the audience of tokens for no API).")
    var audience: String?
    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"
    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8081
    @Option(help: "Clock skew tolerated on exp, nbf and iat, in seconds (0-300).")
    var leeway = 30
    @Option(
        help: ArgumentHelp(
            "The API's identifier (its public URL, registered with `sesame api add`): accept only tokens for it (RFC 8707), serve its protected resource metadata (RFC 9728) at /.well-known/oauth-protected-resource and name it in every 401 challenge.",
            valueName: "url"))
    var resource: String?

    func validate() throws {
        guard let url = URL(string: issuer), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
        else { throw ValidationError("--issuer must be an http(s) URL, not '\(issuer)'.") }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0-65535.") }
        guard (0...300).contains(leeway) else { throw ValidationError("--leeway must be 0-300 seconds.") }
        if let resource {
            do {
                try ProtectedResourceMetadata(resource: resource, authorizationServers: [issuer]).validate()
            } catch {
                throw ValidationError("--resource: \(error.description).")
            }
        }
    }

    func run() async throws {
        try await reportingErrors {
            let validator = AccessTokenValidator(
                issuer: issuer, audience: audience ?? resource ?? issuer, leeway: TimeInterval(leeway))
            let api = try await ExampleAPIServer.start(
                validator: validator, host: host, port: port, resource: resource,
                logger: CLILogging.logger(label: "sesame.example-api", level: .info))
            Terminal.out("Example API: \(api.baseURL.absoluteString)")
            Terminal.error("Accepting the access tokens of \(issuer)")
            if let resource {
                let metadata = ProtectedResourceMetadata(resource: resource, authorizationServers: [issuer])
                Terminal.error("Protected resource metadata (RFC 9728): \(api.baseURL.absoluteString)\(metadata.wellKnownPath)")
            }
            Terminal.error("Try: sesame curl --allow-origin \(api.baseURL.absoluteString) \(api.baseURL.absoluteString)/v1/me")
            try await api.wait()
        }
    }
}
