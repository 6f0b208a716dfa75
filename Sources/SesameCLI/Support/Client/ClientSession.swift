import Foundation
import Logging
import Sesame
import SesameNIOTransport

/// The SDK client behind the terminal commands: the remembered ``CLIProfile`` plus the
/// encrypted credential store in the config directory (`credentials/`, key `credentials.key`).
struct ClientSession: Sendable {
    let directory: ConfigDirectory
    let profile: CLIProfile
    let client: SesameClient
    /// The encrypted store of the directory (sessions, and the software passkey's keys).
    let store: EncryptedFileCredentialStore

    /// Opens the session for `profile` (or the remembered one). `extraOrigins` are allowed to
    /// receive the access token for this run only (`sesame curl --allow-origin`).
    /// `transport` (`--pin`, `--cacert`) replaces the profile's remembered pins and CA for this run.
    static func open(
        _ option: ConfigDirOption, profile: CLIProfile? = nil, extraOrigins: [String] = [],
        authentication: AppAuthentication = .none, sso: Bool? = nil, transport: TransportOptions? = nil
    ) throws -> ClientSession {
        var profile = profile
        if let transport { profile = transport.applied(to: try profile ?? CLIProfile.require(from: option.directory)) }
        return try open(
            directory: option.directory, profile: profile, extraOrigins: extraOrigins, authentication: authentication,
            sso: sso)
    }

    /// How the app authenticates itself (`sesame token --app`, `sesame client-key`).
    enum AppAuthentication: Sendable {
        case none
        case secret(String)
        case privateKeyJWT
    }

    /// As above, for a directory chosen by the command (a sibling app's at `login --sso`).
    /// With `sso` (default: the profile's setting) the client shares sign-ins through the
    /// directory's group (``ConfigDirectory/ssoGroupURL``).
    static func open(
        directory: ConfigDirectory, profile: CLIProfile? = nil, extraOrigins: [String] = [],
        authentication: AppAuthentication = .none, sso: Bool? = nil
    ) throws -> ClientSession {
        let profile = try profile ?? CLIProfile.require(from: directory)
        try directory.prepare()
        let origins = try (profile.allowedOrigins + extraOrigins).map(Self.origin)
        var configuration = SesameConfiguration(
            issuer: profile.issuer, clientID: profile.clientID, redirectURI: profile.redirectURI,
            scopes: profile.scopes, allowedOrigins: origins)
        configuration.dpop = profile.dpop ? .required : .off
        configuration.pinning = try profile.pinning()
        configuration.apis = profile.apis.compactMap(URL.init(string:))
        switch authentication {
        case .none: break
        case .secret(let secret): configuration.clientSecret = secret
        case .privateKeyJWT: configuration.tokenEndpointAuthMethod = .privateKeyJWT
        }
        try configuration.validate()
        let store = try EncryptedFileCredentialStore(
            directory: directory.credentialsURL, keySource: .keyFile(directory.credentialsKeyURL))
        var group: EncryptedFileCredentialStore?
        if sso ?? profile.sso {
            group = try EncryptedFileCredentialStore(
                directory: directory.ssoGroupURL, keySource: .keyFile(directory.ssoGroupKeyURL))
        }
        let client = SesameClient(
            configuration: configuration, store: store, transport: try Self.transport(profile, pinning: configuration.pinning),
            clock: SystemClock(), logger: CLILogging.clientLogger(), ssoGroup: group)
        return ClientSession(directory: directory, profile: profile, client: client, store: store)
    }

    /// `NIOTransport` when the profile pins or trusts a private CA (URLSession on Linux can do
    /// neither), else `URLSession`.
    static func transport(_ profile: CLIProfile, pinning: CertificatePinning) throws -> any HTTPTransport {
        guard !pinning.isEmpty || profile.caFile != nil else { return URLSessionTransport() }
        var roots = NIOTransport.TrustRoots.system
        if let caFile = profile.caFile {
            do {
                roots = try NIOTransport.TrustRoots.pemFile(caFile, addingTo: .system)
            } catch {
                throw CLIError("cannot use --cacert \(caFile): \(error.description)", hint: "Give a PEM file of CA certificates.")
            }
        }
        return NIOTransport(pinning: pinning, trustRoots: roots)
    }

    /// The account commands act on: the current one, or a clear "sign in" error.
    func currentAccount() async throws -> Account {
        if let account = await client.currentAccount() { return labels.enrich(account) }
        throw CLIError(
            "not signed in at \(profile.issuer.absoluteString)",
            hint: "Run `sesame login` first.", exitCode: CLIError.notSignedInExitCode)
    }

    /// The account a command names with `--account` (id, email or subject), else the current one.
    func account(_ selector: String?) async throws -> Account {
        if let selector { return try await account(matching: selector) }
        return try await currentAccount()
    }

    /// The signed-in accounts (most recently used first) with cached email and name.
    func accounts() async -> [Account] {
        let labels = self.labels
        return await client.accounts().map(labels.enrich)
    }

    var labels: AccountLabels { AccountLabels.load(from: directory) }

    /// Finds an account by id, email (case-insensitive), subject or display name.
    func account(matching selector: String) async throws -> Account {
        let accounts = await accounts()
        let lowered = selector.lowercased()
        let matches = accounts.filter {
            $0.id == selector || $0.subject == selector || $0.email?.lowercased() == lowered
        }
        if matches.count == 1 { return matches[0] }
        let byName = accounts.filter { $0.displayName?.lowercased() == lowered }
        if matches.isEmpty, byName.count == 1 { return byName[0] }
        if matches.count > 1 || byName.count > 1 {
            throw CLIError(
                "'\(selector)' matches several accounts",
                hint: "Use the account id shown by `sesame accounts`.")
        }
        throw CLIError(
            "no signed-in account matches '\(selector)'",
            hint: "See `sesame accounts` for ids and emails, or sign in with `sesame login`.",
            exitCode: CLIError.notSignedInExitCode)
    }

    /// Parses an origin given on the command line (`https://api.example.com`).
    static func origin(_ text: String) throws(CLIError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme, url.host != nil,
            ["http", "https"].contains(scheme.lowercased())
        else {
            throw CLIError(
                "'\(text)' is not an origin", hint: "Use the form https://api.example.com[:port].")
        }
        return url
    }
}
