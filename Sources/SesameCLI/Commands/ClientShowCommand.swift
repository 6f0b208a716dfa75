import ArgumentParser
import Foundation
import SesameProtocol
import SesameServer

extension ClientCommand {
    /// `sesame client show ID`: every setting of one client, as `client add` takes them (RFC 7591
    /// metadata names with `--json`), never its secret.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show every setting of one client.")
        @Argument(help: "The client_id.") var clientID: String
        @OptionGroup var dataDir: DataDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                guard let client = try await AdminSession.with(dataDir, { try await $0.store.client(id: clientID) }) else {
                    throw CLIError("no client '\(clientID)' in \(dataDir.path)", hint: "List them with `sesame client list`.")
                }
                let summary = AdminClient(client)
                if json.enabled {
                    try Terminal.json(summary)
                    return
                }
                let rows: [(String, String)] = [
                    ("client_id", client.clientID), ("name", client.name), ("type", client.kindLabel),
                    ("redirect_uris", client.redirectURIs.joined(separator: " ")),
                    ("post_logout_redirect_uris", client.postLogoutRedirectURIs.joined(separator: " ")),
                    ("grant_types", summary.grantTypes.joined(separator: " ")), ("scopes", client.allowedScopes.joined(separator: " ")),
                    ("token_endpoint_auth_method", summary.tokenEndpointAuthMethod),
                    ("id_token_signed_response_alg", client.idTokenSigningAlg),
                    ("access_token_signed_response_alg", client.accessTokenSigningAlg),
                    ("lifetimes (access, ID, refresh)", "\(client.accessTokenLifetime) s, \(client.idTokenLifetime) s, \(client.refreshTokenLifetime) s"),
                    ("mfa_policy", summary.mfaPolicy), ("first_party", "\(client.firstParty)"),
                    ("app_group", client.appGroup ?? "-"),
                    ("require_pushed_authorization_requests", "\(client.requirePushedRequests)"),
                    ("dpop_bound_access_tokens", "\(client.dpopBoundAccessTokens)"),
                    ("security_profile", client.securityProfile.rawValue),
                    ("introspects_any_token", "\(client.introspectsAnyToken)"),
                    ("device_code_lifetime", client.deviceCodeLifetime.map { "\($0) s" } ?? "the server's"),
                    ("device_poll_interval", client.devicePollInterval.map { "\($0) s" } ?? "the server's"),
                ]
                let width = rows.map(\.0.count).max() ?? 0
                for (name, value) in rows {
                    Terminal.out(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + (value.isEmpty ? "-" : value))
                }
            }
        }
    }
}
