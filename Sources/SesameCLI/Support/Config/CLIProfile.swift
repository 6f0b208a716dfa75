import Foundation

/// The settings `sesame login` remembers in `<config-dir>/config.json`, so that `whoami`,
/// `token`, `curl` and the others need no flags. Holds no secret.
struct CLIProfile: Codable, Sendable, Equatable {
    var issuer: URL
    var clientID: String
    /// The redirect URI sent at login (`http://127.0.0.1/callback` by default: any port).
    var redirectURI: URL
    var scopes: [String]
    /// Extra origins `sesame curl` may send the access token to (the issuer's is implicit).
    var allowedOrigins: [String]
    /// Whether the client takes part in single sign-on with the other apps of the directory
    /// (`sesame login --sso`; docs/native-sso.md).
    var sso: Bool
    /// Whether the tokens are bound to a DPoP key of this machine (`sesame login --dpop`,
    /// RFC 9449): `whoami`, `token` refreshes and `sesame curl` then send proofs.
    var dpop: Bool
    /// Certificate pins for the issuer's host (`sesame login --pin`, issue #48); empty: none.
    var pins: [String] = []
    /// A PEM file of extra CA certificates to trust (`sesame login --cacert`).
    var caFile: String?
    /// The APIs (RFC 8707 resources) sign-in asks for and `sesame curl` sends their own tokens
    /// to: the API `sesame curl` discovered from its 401 (RFC 9728).
    var apis: [String] = []

    enum CodingKeys: String, CodingKey {
        case issuer
        case clientID = "client_id"
        case redirectURI = "redirect_uri"
        case scopes
        case allowedOrigins = "allowed_origins"
        case sso
        case dpop
        case pins
        case caFile = "ca_file"
        case apis
    }

    init(
        issuer: URL, clientID: String, redirectURI: URL, scopes: [String],
        allowedOrigins: [String] = [], sso: Bool = false, dpop: Bool = false
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.allowedOrigins = allowedOrigins
        self.sso = sso
        self.dpop = dpop
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issuer = try container.decode(URL.self, forKey: .issuer)
        clientID = try container.decode(String.self, forKey: .clientID)
        redirectURI = try container.decode(URL.self, forKey: .redirectURI)
        scopes = try container.decodeIfPresent([String].self, forKey: .scopes) ?? Self.defaultScopes
        allowedOrigins = try container.decodeIfPresent([String].self, forKey: .allowedOrigins) ?? []
        sso = try container.decodeIfPresent(Bool.self, forKey: .sso) ?? false
        dpop = try container.decodeIfPresent(Bool.self, forKey: .dpop) ?? false
        pins = try container.decodeIfPresent([String].self, forKey: .pins) ?? []
        caFile = try container.decodeIfPresent(String.self, forKey: .caFile)
        apis = try container.decodeIfPresent([String].self, forKey: .apis) ?? []
    }

    static let defaultScopes = ["openid", "profile", "email", "offline_access"]
    static let defaultRedirectURI = URL(string: "http://127.0.0.1/callback")!

    /// The remembered profile, or `nil` when `sesame login` never ran with this config dir.
    static func load(from directory: ConfigDirectory) throws(CLIError) -> CLIProfile? {
        guard let data = FileManager.default.contents(atPath: directory.profileURL.path) else {
            return nil
        }
        do {
            return try JSONDecoder().decode(CLIProfile.self, from: data)
        } catch {
            throw CLIError(
                "\(directory.profileURL.path) is not a valid sesame profile (\(error))",
                hint: "Delete it and run `sesame login --issuer URL --client-id ID` again.")
        }
    }

    /// The remembered profile; fails with a hint to sign in when there is none.
    static func require(from directory: ConfigDirectory) throws(CLIError) -> CLIProfile {
        guard let profile = try load(from: directory) else {
            throw CLIError(
                "not signed in: no profile in \(directory.url.path)",
                hint: "Run `sesame login --issuer URL --client-id ID` first.",
                exitCode: CLIError.notSignedInExitCode)
        }
        return profile
    }

    /// Writes the profile atomically with mode 0600.
    func save(to directory: ConfigDirectory) throws(CLIError) {
        try directory.prepare()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(self)
            try data.write(to: directory.profileURL, options: .atomic)
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o600], ofItemAtPath: directory.profileURL.path)
        } catch {
            throw CLIError(
                "cannot write \(directory.profileURL.path) (\(error.localizedDescription))",
                hint: "Check the config directory's permissions or pass --config-dir.")
        }
    }
}
