import ArgumentParser
import Foundation
import SesameProtocol
import SesameServer

/// `sesame client add|list|remove`: OAuth clients registered in the data directory (RFC 7591 §2
/// metadata names).
struct ClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Manage the OAuth clients of a server's data directory.",
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a client.",
            discussion: """
                A public client (the default: native and command-line apps) uses PKCE and has no \
                secret. A --confidential client gets a generated secret, printed once.
                Only --first-party clients (your own apps) may sign in with a password at \
                /authorize-challenge and call the account APIs under /api/; other clients sign \
                in through the browser at /authorize.
                Example: sesame client add my-cli --redirect-uri http://127.0.0.1/callback
                """)

        @Argument(help: "The client_id.") var clientID: String
        @Option(help: "A display name (default: the client id).") var name: String?
        @Flag(help: "Create a confidential client with a generated secret.") var confidential = false
        @Option(name: .customLong("redirect-uri"), help: "A redirect URI (repeatable). Loopback URIs match any port.")
        var redirectURIs: [String] = []
        @Option(name: .customLong("post-logout-redirect-uri"), help: "A post-logout redirect URI (repeatable).")
        var postLogoutRedirectURIs: [String] = []
        @Option(
            name: .customLong("grant"),
            help: "A grant type (repeatable): authorization_code, refresh_token, client_credentials.")
        var grants: [String] = []
        @Option(
            name: .customLong("scope"),
            help: "An allowed scope (repeatable, or space separated; default: \(ClientRecord.defaultAllowedScopes.joined(separator: " "))).")
        var scopes: [String] = []
        @Option(
            name: .customLong("mfa-policy"),
            help: "When sign-ins ask for a second factor: never, when-enrolled (default) or always.")
        var mfaPolicy: String?
        @Flag(
            name: .customLong("first-party"),
            help: "Your own app: may use native sign-in (/authorize-challenge) and the account APIs.")
        var firstParty = false
        @OptionGroup var dataDir: DataDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                var spec = ClientSpec(
                    clientID: clientID, name: name, confidential: confidential,
                    redirectURIs: redirectURIs, postLogoutRedirectURIs: postLogoutRedirectURIs)
                if !grants.isEmpty { spec.grantTypes = try grants.map(Self.grantType) }
                let scopeList = scopes.flatMap { $0.split(separator: " ").map(String.init) }
                if !scopeList.isEmpty { spec.scopes = scopeList }
                if let mfaPolicy { spec.mfaPolicy = try Self.mfaPolicy(mfaPolicy) }
                spec.firstParty = firstParty
                let (client, secret) = try await AdminSession.with(dataDir) { admin in
                    try await admin.addClient(spec)
                }
                if json.enabled {
                    try Terminal.json(ClientSummary(client, secret: secret))
                    return
                }
                Terminal.out("Client \(client.clientID) created (\(client.kindLabel)).")
                if let secret {
                    Terminal.out("Client secret (shown only once; store it now): \(secret)")
                }
            }
        }

        static func mfaPolicy(_ text: String) throws -> MFAPolicy {
            if let policy = MFAPolicy(rawValue: text.lowercased().replacingOccurrences(of: "-", with: "_")) {
                return policy
            }
            throw CLIError("unknown MFA policy '\(text)'", hint: "Use never, when-enrolled or always.")
        }

        static func grantType(_ text: String) throws -> GrantType {
            let normalized = text.lowercased().replacingOccurrences(of: "-", with: "_")
            if let grant = GrantType(rawValue: normalized) { return grant }
            if normalized == "password" {
                throw CLIError(
                    "the password grant is not supported (RFC 9700 §2.4 forbids it)",
                    hint: "Use authorization_code with PKCE.")
            }
            throw CLIError(
                "unknown grant type '\(text)'",
                hint: "Use authorization_code, refresh_token or client_credentials.")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the registered clients.")
        @OptionGroup var dataDir: DataDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let clients = try await AdminSession.with(dataDir) { try await $0.clients() }
                    .sorted { $0.clientID < $1.clientID }
                if json.enabled {
                    try Terminal.json(clients.map { ClientSummary($0, secret: nil) })
                } else if clients.isEmpty {
                    Terminal.out("No clients. Add one with: sesame client add <client-id> --redirect-uri http://127.0.0.1/callback")
                } else {
                    for client in clients {
                        Terminal.out(
                            "\(client.clientID)  \(client.kindLabel)  \(client.redirectURIs.joined(separator: " "))")
                    }
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a client.")
        @Argument(help: "The client_id.") var clientID: String
        @OptionGroup var dataDir: DataDirOption

        func run() async throws {
            try await reportingErrors {
                try await AdminSession.with(dataDir) { admin in
                    guard try await admin.store.client(id: clientID) != nil else {
                        throw CLIError(
                            "no client '\(clientID)' in \(dataDir.path)",
                            hint: "List them with `sesame client list`.")
                    }
                    try await admin.removeClient(id: clientID)
                }
                Terminal.out("Client \(clientID) removed.")
            }
        }
    }
}

extension ClientRecord {
    /// `public` or `confidential`, with `, first-party` for the operator's own apps.
    fileprivate var kindLabel: String {
        (isConfidential ? "confidential" : "public") + (firstParty ? ", first-party" : "")
    }
}

/// A client as printed by `client list --json` (no secret hash; the secret only on creation).
struct ClientSummary: Encodable {
    var clientID: String
    var name: String
    var type: String
    var redirectURIs: [String]
    var postLogoutRedirectURIs: [String]
    var grantTypes: [String]
    var scopes: [String]
    var tokenEndpointAuthMethod: String
    var mfaPolicy: String
    var firstParty: Bool
    var clientSecret: String?

    init(_ client: ClientRecord, secret: String?) {
        clientID = client.clientID
        name = client.name
        type = client.isConfidential ? "confidential" : "public"
        redirectURIs = client.redirectURIs
        postLogoutRedirectURIs = client.postLogoutRedirectURIs
        grantTypes = client.grantTypes.map(\.rawValue)
        scopes = client.allowedScopes
        tokenEndpointAuthMethod = client.tokenEndpointAuthMethod.rawValue
        mfaPolicy = client.mfaPolicy.rawValue
        firstParty = client.firstParty
        clientSecret = secret
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case name = "client_name"
        case type
        case redirectURIs = "redirect_uris"
        case postLogoutRedirectURIs = "post_logout_redirect_uris"
        case grantTypes = "grant_types"
        case scopes
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case mfaPolicy = "mfa_policy"
        case firstParty = "first_party"
        case clientSecret = "client_secret"
    }
}
