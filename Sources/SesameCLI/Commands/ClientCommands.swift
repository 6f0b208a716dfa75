import ArgumentParser
import Foundation
import SesameProtocol
import SesameProvider
import SesameServer

/// `sesame client add|list|show|remove`: OAuth clients registered in the data directory (RFC 7591 §2
/// metadata names).
struct ClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Manage the OAuth clients of a server's data directory.",
        subcommands: [Add.self, List.self, Show.self, Remove.self, Role.self, APIs.self])

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
            help: "A grant type (repeatable): authorization-code, refresh-token, client-credentials, token-exchange (federation), device-code (RFC 8628: TVs, watches, shells); the RFC names (authorization_code, urn:ietf:params:oauth:grant-type:device_code, …) work too.")
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
        @Option(name: .customLong("pin-length"), help: "Device PINs: the fewest digits (default 5).")
        var pinLength: Int?
        @Option(name: .customLong("pin-max-attempts"), help: "Device PINs: wrong PINs in a row before the registration is revoked (default 3).")
        var pinMaxAttempts: Int?
        @Option(name: .customLong("pin-max-repeated"), help: "Device PINs: how often one digit may appear (default 2).")
        var pinMaxRepeated: Int?
        @Option(
            name: .customLong("pin-blacklist"),
            help: ArgumentHelp("Device PINs: a file of refused PINs, one per line, added to the built-in list.", valueName: "file"))
        var pinBlacklist: String?
        @Option(
            name: .customLong("app-group"),
            help: ArgumentHelp(
                "The vendor whose apps share sign-ins on a device (single sign-on, docs/native-sso.md); adds the token exchange grant and the device_sso scope.",
                valueName: "name"))
        var appGroup: String?
        @Option(
            name: .customLong("jwks-file"),
            help: ArgumentHelp(
                "The client's public keys (a JSON Web Key Set, e.g. from `sesame client-key`): it authenticates with private_key_jwt (RFC 7523) instead of a secret.",
                valueName: "file"))
        var jwksFile: String?
        @Option(
            name: .customLong("tls-subject"),
            help: ArgumentHelp(
                "Mutual TLS (RFC 8705 tls_client_auth): the client's certificate, by its subject DN (CN=payments,O=Example Bank,C=GB) or one SAN as dns:NAME, uri:URI, ip:ADDRESS or email:ADDRESS; it must chain to a CA of `sesame serve --tls-client-ca`.",
                valueName: "subject"))
        var tlsSubject: String?
        @Flag(
            name: .customLong("self-signed-certificate"),
            help: "With --jwks-file: the client authenticates with a self-signed TLS client certificate whose key is in the set (RFC 8705 self_signed_tls_client_auth) instead of private_key_jwt.")
        var selfSignedCertificate = false
        @Flag(
            name: .customLong("certificate-bound"),
            help: "Bind the client's access tokens to its TLS client certificate (RFC 8705 tls_client_certificate_bound_access_tokens): token requests must come with it, and so must every use of a token.")
        var certificateBound = false
        @Option(
            name: .customLong("id-token-alg"),
            help: ArgumentHelp("The ID tokens' signature algorithm: RS256 (default) or ES256.", valueName: "alg"))
        var idTokenAlgorithm: String?
        @Option(
            name: .customLong("access-token-alg"),
            help: ArgumentHelp(
                "The access tokens' signature algorithm: RS256 (default) or ES256, whose signature costs a fraction of an RSA one; the client's APIs must accept it.",
                valueName: "alg"))
        var accessTokenAlgorithm: String?
        @Flag(
            name: .customLong("require-par"),
            help: "The client must push its authorization requests to /par first (RFC 9126); /authorize refuses it otherwise.")
        var requirePushedRequests = false
        @Flag(
            name: .customLong("dpop"),
            help: "Every token request must carry a DPoP proof (RFC 9449 dpop_bound_access_tokens): the client's tokens are bound to its key.")
        var dpopBoundAccessTokens = false
        @Option(
            name: .customLong("profile"),
            help: ArgumentHelp(
                "The security profile: standard (default) or fapi2 (FAPI 2.0: private_key_jwt with --jwks-file, ES256, PAR and DPoP required, PKCE, 60 s codes; docs/fapi2.md).",
                valueName: "profile"))
        var securityProfile: String?
        @Flag(
            name: .customLong("introspect-any-token"),
            help: "A resource server that may introspect every client's tokens (RFC 7662); without it a client introspects only tokens issued to it or meant for it.")
        var introspectsAnyToken = false
        @Option(
            name: .customLong("device-code-lifetime"),
            help: ArgumentHelp(
                "How long this client's device codes stay valid, in seconds (RFC 8628; default: the server's --device-code-lifetime).",
                valueName: "seconds"))
        var deviceCodeLifetime: Int?
        @Option(
            name: .customLong("device-poll-interval"),
            help: ArgumentHelp(
                "How often this client's devices may poll, in seconds (RFC 8628; default: the server's --device-poll-interval).",
                valueName: "seconds"))
        var devicePollInterval: Int?
        @OptionGroup var apis: ClientAPIOptions
        @OptionGroup var dataDir: DataDirOption
        @OptionGroup var json: JSONOption

        func validate() throws {
            if confidential, jwksFile != nil {
                throw ValidationError("--confidential makes a secret and --jwks-file registers keys; choose one.")
            }
            if selfSignedCertificate, jwksFile == nil {
                throw ValidationError("--self-signed-certificate needs --jwks-file with the certificate's public key.")
            }
            if tlsSubject != nil, confidential || jwksFile != nil {
                throw ValidationError("--tls-subject authenticates the client by its certificate; drop --confidential and --jwks-file.")
            }
        }

        /// The PIN policy the options ask for; `nil` when none was given. Checked by the rules the
        /// admin API applies (``PINPolicy/applying(_:)``), a refusal naming the option.
        func pinPolicy() throws -> PINPolicy? {
            guard pinLength != nil || pinMaxAttempts != nil || pinMaxRepeated != nil || pinBlacklist != nil else { return nil }
            var blacklist: [String]?
            if let pinBlacklist {
                guard let text = try? String(contentsOfFile: pinBlacklist, encoding: .utf8) else {
                    throw CLIError("cannot read the PIN blacklist '\(pinBlacklist)'", hint: "Give a text file, one PIN per line.")
                }
                blacklist = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty }
            }
            let update = AdminPINPolicyUpdate(
                minimumLength: pinLength, maximumAttempts: pinMaxAttempts, maximumRepeatedDigits: pinMaxRepeated,
                blacklist: blacklist)
            do {
                return try PINPolicy().applying(update)
            } catch let failure as ProviderFailure {
                let field = failure.details?.first
                let option = field.flatMap { Self.pinOptions[$0.field] } ?? "a PIN option"
                throw CLIError("\(option) \(field?.message ?? failure.description ?? "is out of range")")
            }
        }

        /// The admin API's `pin_policy` members, by the options that set them.
        static let pinOptions = [
            "pin_policy.minimum_length": "--pin-length", "pin_policy.maximum_attempts": "--pin-max-attempts",
            "pin_policy.maximum_repeated_digits": "--pin-max-repeated", "pin_policy.blacklist": "--pin-blacklist",
        ]

        func run() async throws {
            try await reportingErrors {
                let pins = try pinPolicy()
                var spec = ClientSpec(
                    clientID: clientID, name: name, confidential: confidential,
                    redirectURIs: redirectURIs, postLogoutRedirectURIs: postLogoutRedirectURIs)
                if !grants.isEmpty { spec.grantTypes = try grants.map(Self.grantType) }
                let scopeList = scopes.flatMap { $0.split(separator: " ").map(String.init) }
                if !scopeList.isEmpty { spec.scopes = scopeList }
                if let mfaPolicy { spec.mfaPolicy = try Self.mfaPolicy(mfaPolicy) }
                spec.firstParty = firstParty
                spec.appGroup = appGroup
                if let idTokenAlgorithm { spec.idTokenSigningAlg = idTokenAlgorithm }
                if let accessTokenAlgorithm { spec.accessTokenSigningAlg = accessTokenAlgorithm }
                spec.requirePushedRequests = requirePushedRequests
                spec.dpopBoundAccessTokens = dpopBoundAccessTokens
                spec.introspectsAnyToken = introspectsAnyToken
                spec.deviceCodeLifetime = deviceCodeLifetime
                spec.devicePollInterval = devicePollInterval
                if let securityProfile {
                    do throws(ClientValidation.Issue) {
                        spec.securityProfile = try ClientValidation.checkSecurityProfile(securityProfile)
                    } catch {
                        throw CLIError("--profile: \(error.reason)")
                    }
                    if spec.securityProfile == .fapi2 {
                        // §5.4: never RS256; ES256 unless the command names an algorithm.
                        if idTokenAlgorithm == nil { spec.idTokenSigningAlg = "ES256" }
                        if accessTokenAlgorithm == nil { spec.accessTokenSigningAlg = "ES256" }
                    }
                }
                if let jwksFile {
                    spec.jwks = try InputFile.text(
                        jwksFile, what: "--jwks-file", hint: "Give the path of a JSON Web Key Set file.")
                }
                if selfSignedCertificate { spec.tokenEndpointAuthMethod = .selfSignedTLSClientAuth }
                if let tlsSubject { spec.tlsClientAuthSubject = try Self.tlsSubject(tlsSubject) }
                spec.certificateBoundAccessTokens = certificateBound
                spec.resources = apis.apis
                spec.defaultResource = apis.defaultAPI
                let (client, secret) = try await AdminSession.with(dataDir) { admin in
                    let added = try await admin.addClient(spec)
                    if let pins { try await admin.setPINPolicy(pins, clientID: spec.clientID) }
                    return added
                }
                if json.enabled {
                    try Terminal.json(AdminClient(client, secret: secret))
                    return
                }
                Terminal.out("Client \(client.clientID) created (\(client.kindLabel)).")
                if let secret {
                    Terminal.out("Client secret (shown only once; store it now): \(secret)")
                }
            }
        }

        /// `--tls-subject`: `dns:`, `uri:`, `ip:` or `email:` and a SAN, otherwise a subject DN.
        static func tlsSubject(_ text: String) throws -> TLSClientAuthSubject {
            let kinds: [(String, (String) -> TLSClientAuthSubject)] = [
                ("dns:", TLSClientAuthSubject.dnsName), ("uri:", TLSClientAuthSubject.uri),
                ("ip:", TLSClientAuthSubject.ipAddress), ("email:", TLSClientAuthSubject.email),
            ]
            for (prefix, make) in kinds where text.lowercased().hasPrefix(prefix) {
                return make(String(text.dropFirst(prefix.count)))
            }
            guard text.contains("=") else {
                throw CLIError(
                    "--tls-subject '\(text)' is neither a subject DN nor a SAN",
                    hint: "Write CN=payments,O=Example Bank,C=GB, or dns:NAME, uri:URI, ip:ADDRESS, email:ADDRESS.")
            }
            return .subjectDN(text)
        }

        static func mfaPolicy(_ text: String) throws -> MFAPolicy {
            if let policy = MFAPolicy(rawValue: text.lowercased().replacingOccurrences(of: "-", with: "_")) {
                return policy
            }
            throw CLIError("unknown MFA policy '\(text)'", hint: "Use never, when-enrolled or always.")
        }

        static func grantType(_ text: String) throws -> GrantType {
            if let grant = GrantType(rawValue: text) { return grant }
            let normalized = text.lowercased().replacingOccurrences(of: "-", with: "_")
            if normalized == "token_exchange" { return .tokenExchange }
            if normalized == "device_code" { return .deviceCode }
            if let grant = GrantType(rawValue: normalized) { return grant }
            if normalized == "password" {
                throw CLIError(
                    "the password grant is not supported (RFC 9700 §2.4 forbids it)",
                    hint: "Use authorization_code with PKCE.")
            }
            throw CLIError(
                "unknown grant type '\(text)'",
                hint: "Use authorization-code, refresh-token, client-credentials, token-exchange or device-code.")
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
                    try Terminal.json(clients.map { AdminClient($0) })
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
    var kindLabel: String {
        (isConfidential ? "confidential" : "public") + (firstParty ? ", first-party" : "")
            + (tokenEndpointAuthMethod == .privateKeyJWT || tokenEndpointAuthMethod.isMutualTLS ? ", \(tokenEndpointAuthMethod.rawValue)" : "")
            + (certificateBoundAccessTokens ? ", certificate-bound" : "") + (appGroup.map { ", app group \($0)" } ?? "")
    }
}
