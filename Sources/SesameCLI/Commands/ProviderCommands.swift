import ArgumentParser
import Foundation
import SesameProtocol
import SesameServer

/// `sesame provider add|list|remove`: the federation providers whose tokens the server accepts
/// (docs/federation.md).
struct ProviderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "provider",
        abstract: "Manage federation providers (a vendor's OpenID provider, Google, Apple).",
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Register or replace a federation provider.")
        @Argument(help: "The name apps use for it (subject_issuer), e.g. google or acme-id.") var id: String
        @Option(help: "oidc (any OpenID provider), google, apple or facebook (with --broker-client-id = the app id).")
        var kind: String = "oidc"
        @Option(help: "The iss its tokens carry (google and apple: known).") var issuer: String?
        @Option(
            name: .customLong("audience"),
            help: "An accepted aud (repeatable): the client id the provider issues tokens to; Apple: the bundle id.")
        var audiences: [String] = []
        @Option(name: .customLong("jwks-uri"), help: "Where its keys are (google and apple: known).") var jwksURI: String?
        @Option(
            name: .customLong("public-key-file"), help: ArgumentHelp("A PEM public key instead of a JWKS.", valueName: "file"))
        var publicKeyFile: String?
        @Option(name: .customLong("required-claim"), help: "The claim a token must carry (default email).")
        var requiredClaim: String = "email"
        @Flag(name: .customLong("allow-unverified-email"), help: "Accept emails the provider has not verified (they never link to an existing account).")
        var allowUnverifiedEmail = false
        @Flag(name: .customLong("link-by-email"), help: "Trust the provider's verified emails to link to local accounts with the same verified email.")
        var linkByEmail = false
        @Option(name: .customLong("display-name"), help: "The name shown to users (default: the id).") var displayName: String?
        @Option(
            name: .customLong("broker-client-id"),
            help: "Offer \"Continue with …\" on the hosted login page: the client id Sesame has at the provider (its redirect URI: <issuer>/federation/callback).")
        var brokerClientID: String?
        @Option(
            name: .customLong("broker-client-secret-file"),
            help: ArgumentHelp("With --broker-client-id: a file holding that client's secret (sealed at rest).", valueName: "file"))
        var brokerClientSecretFile: String?
        @Option(name: .customLong("inspection-endpoint"), help: "Facebook: the token inspection URL (default Graph API debug_token).")
        var inspectionEndpoint: String?
        @Option(name: .customLong("profile-endpoint"), help: "Facebook: the profile URL (default Graph API /me).")
        var profileEndpoint: String?
        @OptionGroup var dataDir: DataDirOption

        func run() async throws {
            try await reportingErrors {
                guard let kind = Federation.Kind(rawValue: kind) else {
                    throw CLIError(
                        "unknown provider kind '\(kind)'",
                        hint: "Use \(Federation.Kind.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                var pem: String?
                if let publicKeyFile {
                    pem = try InputFile.text(publicKeyFile, what: "--public-key-file", hint: "Give the path of a PEM public key.")
                }
                var record = FederationProviderRecord(
                    id: id, kind: kind, issuer: issuer ?? "", audiences: audiences, jwksURI: jwksURI, publicKeyPEM: pem,
                    requiredClaim: requiredClaim, allowUnverifiedEmail: allowUnverifiedEmail, linkByEmail: linkByEmail,
                    displayName: displayName)
                record.brokerClientID = brokerClientID
                record.inspectionEndpoint = inspectionEndpoint
                record.profileEndpoint = profileEndpoint
                var secret: String?
                if let brokerClientSecretFile {
                    secret = try InputFile.value(
                        brokerClientSecretFile, what: "--broker-client-secret-file", hint: "Put the secret alone in the file.")
                }
                let added = try await AdminSession.with(dataDir) {
                    try await $0.addFederationProvider(record, brokerClientSecret: secret)
                }
                Terminal.out("Provider \(added.id) registered (\(added.kind.rawValue), issuer \(added.issuer)).")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the federation providers.")
        @OptionGroup var dataDir: DataDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let providers = try await AdminSession.with(dataDir) { try await $0.federationProviders() }
                if json.enabled {
                    try Terminal.json(providers.map(ProviderSummary.init))
                } else if providers.isEmpty {
                    Terminal.out("No providers. Add one with: sesame provider add NAME --issuer URL --audience CLIENT_ID --jwks-uri URL")
                } else {
                    for provider in providers {
                        Terminal.out("\(provider.id)  \(provider.kind.rawValue)  \(provider.issuer)  aud \(provider.audiences.joined(separator: ","))")
                    }
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a provider and unlink its identities.")
        @Argument(help: "The provider's name.") var id: String
        @OptionGroup var dataDir: DataDirOption

        func run() async throws {
            try await reportingErrors {
                try await AdminSession.with(dataDir) { try await $0.removeFederationProvider(id: id) }
                Terminal.out("Provider \(id) removed; accounts linked through it keep their other ways to sign in.")
            }
        }
    }
}

/// A provider as `sesame provider list --json` prints it.
struct ProviderSummary: Encodable {
    var id: String
    var kind: String
    var issuer: String
    var audiences: [String]
    var jwksURI: String?
    var requiredClaim: String
    var allowUnverifiedEmail: Bool
    var linkByEmail: Bool

    init(_ record: FederationProviderRecord) {
        id = record.id
        kind = record.kind.rawValue
        issuer = record.issuer
        audiences = record.audiences
        jwksURI = record.jwksURI
        requiredClaim = record.requiredClaim
        allowUnverifiedEmail = record.allowUnverifiedEmail
        linkByEmail = record.linkByEmail
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, issuer, audiences
        case jwksURI = "jwks_uri"
        case requiredClaim = "required_claim"
        case allowUnverifiedEmail = "allow_unverified_email"
        case linkByEmail = "link_by_email"
    }
}
