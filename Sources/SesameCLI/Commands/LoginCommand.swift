import ArgumentParser
import Foundation
import Sesame
import SesameProtocol
import SesameLoopback

/// `sesame login`: browser sign-in through the loopback redirect (RFC 8252 §7.3) against any
/// OpenID provider, or with `--password` native first-party sign-in with MFA (docs/first-party-and-accounts.md),
/// remembering issuer, client id, redirect URI and scopes for later commands.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in with the browser (authorization code + PKCE, loopback redirect) or with a password.",
        discussion: """
            Opens the system browser ($BROWSER when set, else xdg-open / open) at the \
            provider's authorization endpoint and waits on 127.0.0.1 for the redirect. The \
            issuer, client id, redirect URI and scopes are remembered in <config-dir>/config.json, \
            so later commands need no flags and a later `sesame login` adds another account.
            Example: sesame login --issuer http://127.0.0.1:8080 --client-id sesame-cli

            With --password there is no browser: the username (unless --username) and the \
            password (without echo) are asked for, then a second factor when the account has \
            one: choose the method (or pass --mfa-method) and type the code. When stdin is not \
            a terminal each answer is read as one line of stdin: username, password, method (only \
            when several are offered and no --mfa-method), code.
            Example: sesame login --password --username alice --mfa-method totp

            With --device there is no browser on this machine either (OAuth 2.0 Device \
            Authorization Grant, RFC 8628): a code and a web address are printed; open the \
            address on any other device (a phone, another computer), sign in there and approve. \
            The command waits until then, or until the code expires. The client needs the \
            device-code grant (`sesame client add ... --grant device-code`).
            Example: sesame login --device --issuer https://id.example.com --client-id tv-app
            """)

    @Flag(help: "Sign in natively with username and password (OAuth 2.0 for First-Party Applications), not the browser.")
    var password = false
    @Flag(help: "Sign in with this machine's passkey and its passkey PIN, no password (see `sesame passkey add`).")
    var passkey = false
    @Flag(help: "Sign in by approving on another device (a phone, another computer): prints a code and a web address, no browser needed here (RFC 8628).")
    var device = false
    @Option(
        name: .customLong("device-name"),
        help: "With --device: how this machine calls itself on the approval page (default: sesame CLI on <hostname>).")
    var deviceName: String?
    @Option(help: "With --password: the username or email (asked for when absent). With --passkey: only this account's passkeys.")
    var username: String?
    @Option(name: .customLong("mfa-method"), help: "With --password: the second factor to use when one is required (email, sms, totp, passkey).")
    var mfaMethod: MFAMethod?

    @Option(help: "The OpenID provider's issuer URL (default: the remembered one).")
    var issuer: String?
    @Option(name: .customLong("client-id"), help: "The registered client id (default: the remembered one).")
    var clientID: String?
    @Option(name: .customLong("scope"), help: "Scopes to request (repeatable or space separated; default: openid profile email offline_access).")
    var scopes: [String] = []
    @Flag(name: .customLong("no-browser"), help: "Print the URL to open instead of starting a browser.")
    var noBrowser = false
    @Option(
        name: .customLong("redirect-uri"),
        help: "The loopback redirect URI, e.g. http://127.0.0.1:8400/callback to pin the port for providers that match exactly (default: http://127.0.0.1/callback on a free port).")
    var redirectURI: String?
    @Option(name: .customLong("allow-origin"), help: "An API origin `sesame curl` may send the token to (repeatable, remembered).")
    var allowOrigins: [String] = []
    @Option(name: .customLong("login-hint"), help: "Pre-fill this username or email on the login page.")
    var loginHint: String?
    @Option(help: "Seconds to wait for the browser to come back.")
    var timeout: Int = 300
    @Flag(
        help: "Single sign-on with the other apps of this config directory (remembered): sign in through an account another app shared, with no browser and no password; when none is shared, sign in and share it. With a --client-id other than the remembered one, acts as that sibling app (see --as).")
    var sso = false
    @Option(help: "Sign in with another provider's ID token (federation): the provider's name on the server.")
    var provider: String?
    @Option(
        name: .customLong("provider-token-file"),
        help: ArgumentHelp("With --provider: a file holding the provider's ID token.", valueName: "file"))
    var providerTokenFile: String?
    @Option(name: .customLong("provider-nonce"), help: "With --provider: the nonce given to the provider, if any.")
    var providerNonce: String?
    @Flag(help: "Bind the tokens to a key of this machine with DPoP (RFC 9449): a copy of them is useless without the key. Remembered.")
    var dpop = false
    @OptionGroup var transport: TransportOptions
    @OptionGroup var configDir: ConfigDirOption
    @OptionGroup var json: JSONOption

    func validate() throws {
        // Bounded: a wait of Int.max seconds overflows the clock's deadline.
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be 1 to 86400 seconds.") }
        if !password, mfaMethod != nil || (username != nil && !passkey) {
            throw ValidationError("--username and --mfa-method need --password (--username also goes with --passkey).")
        }
        if passkey, password || sso || provider != nil {
            throw ValidationError("--passkey signs in with this machine's passkey; drop --password, --sso and --provider.")
        }
        if (provider == nil) != (providerTokenFile == nil) {
            throw ValidationError("--provider and --provider-token-file go together.")
        }
        if provider != nil, password || sso {
            throw ValidationError("--provider signs in with the provider's token; drop --password and --sso.")
        }
        if device, password || passkey || provider != nil || noBrowser || loginHint != nil || redirectURI != nil {
            throw ValidationError(
                "--device signs in by approving on another device; drop --password, --passkey, --provider, --no-browser, --login-hint and --redirect-uri.")
        }
        if deviceName != nil, !device {
            throw ValidationError("--device-name goes with --device.")
        }
        if password, noBrowser || loginHint != nil {
            throw ValidationError("--no-browser and --login-hint are for browser sign-in; drop them with --password.")
        }
    }

    func run() async throws {
        try await reportingErrors {
            let top = configDir.directory
            var directory = top
            let rememberedTop = try CLIProfile.load(from: top)
            if sso, configDir.app == nil, let clientID, let rememberedTop, rememberedTop.clientID != clientID {
                // Another client id of the same directory: a sibling app with its own sessions.
                directory = top.app(clientID)
            }
            let remembered = try CLIProfile.load(from: directory)
            var profile = try makeProfile(
                remembered: remembered, fallbackIssuer: directory.isApp ? rememberedTop?.issuer : nil)
            profile.sso = sso || (remembered?.sso ?? false)
            profile.dpop = dpop || (remembered?.dpop ?? false)
            if let remembered, remembered.issuer == profile.issuer {
                profile.pins = remembered.pins
                profile.caFile = remembered.caFile
            }
            profile = transport.applied(to: profile)
            try await refuseProviderChange(from: remembered, to: profile, directory: directory)
            let session = try ClientSession.open(directory: directory, profile: profile)
            // Discovery first: an unreachable or wrong issuer fails here, before any progress.
            _ = try await session.client.metadata()
            var account: Account
            if passkey {
                account = try await session.client.passkeys.signIn(
                    username: username, using: session.passkeyAuthenticator())
            } else if let provider, let providerTokenFile {
                account = try await providerSignIn(session.client, provider: provider, file: providerTokenFile)
            } else if device {
                account = try await deviceSignIn(session.client)
            } else if profile.sso, !password, let shared = try await sharedAccount(session.client) {
                account = shared
            } else {
                account =
                    password
                    ? try await passwordSignIn(session)
                    : try await browserSignIn(session.client, profile: profile, remembered: remembered)
            }
            try profile.save(to: directory)
            if let claims = try? await session.client.userInfo(for: account.id) {
                AccountLabels.remember(claims, for: account, in: directory)
                account = AccountLabels.load(from: directory).enrich(account)
            }
            if json.enabled {
                try Terminal.json(AccountSummary(account, current: true))
            } else {
                Terminal.out(
                    "Signed in as \(AccountSummary.label(account)) at \(account.issuer).")
            }
        }
    }

    /// Single sign-on (docs/native-sso.md): the account a sibling app shared (the one
    /// `--login-hint` names, else the most recent), exchanged for this app's own tokens; `nil`
    /// when none is shared or the provider refused it (the stale entry is then gone).
    private func sharedAccount(_ client: SesameClient) async throws -> Account? {
        let shared = await client.sso.accounts()
        let hint = loginHint?.lowercased()
        guard
            let chosen = hint.map({ hint in
                shared.first { $0.email?.lowercased() == hint || $0.subject == hint || $0.id == hint }
            }) ?? shared.first
        else { return nil }
        Terminal.progress("Signing in as \(chosen.label) through the session \(chosen.sharedBy) shared ...")
        do {
            return try await client.sso.signIn(with: chosen)
        } catch {
            guard case .ssoUnavailable(let reason) = error.reason else { throw error }
            Terminal.progress("Single sign-on is not possible (\(reason)); signing in normally.")
            return nil
        }
    }

    /// Federation (docs/federation.md): a token the script already has, exchanged at the server.
    private func providerSignIn(_ client: SesameClient, provider: String, file: String) async throws -> Account {
        let token = try InputFile.value(file, what: "an ID token", hint: "Put the provider's ID token alone in the file.")
        return try await client.federation.signIn(withProviderToken: token, provider: provider, nonce: providerNonce)
    }

    /// docs/first-party-and-accounts.md: username + password, then the second factor when the provider asks for one.
    private func passwordSignIn(_ session: ClientSession) async throws -> Account {
        let client = session.client
        let name = try username ?? LoginPrompts.line("Username or email: ", what: "username")
        let secret = try LoginPrompts.secret("Password for \(name): ", what: "password")
        let progress = ChallengeProgressLine.follow(client)
        let result: Result<NativeLoginResult, SesameError>
        do {
            result = .success(try await client.login(username: name, password: secret))
        } catch {
            result = .failure(error)
        }
        // Cancelling ends the events stream after the events already published (the solved line).
        progress.cancel()
        await progress.value
        switch try result.get() {
        case .signedIn(let account):
            return account
        case .mfaRequired(let challenge):
            return try await MFAPrompt.complete(
                challenge, preferred: mfaMethod, passkey: session.passkeyAuthenticator())
        }
    }

    private func browserSignIn(_ client: SesameClient, profile: CLIProfile, remembered: CLIProfile?)
        async throws -> Account
    {
        let opener: any BrowserOpener =
            noBrowser ? PrintingBrowserOpener() : EnvironmentBrowserOpener()
        let agent = LoopbackBrowserAgent(opener: opener, timeout: TimeInterval(timeout))
        Terminal.progress(
            noBrowser
                ? "Waiting for you to sign in at \(profile.issuer.absoluteString) ..."
                : "Opening the browser to sign in at \(profile.issuer.absoluteString) ...")
        var options = SignInOptions(loginHint: loginHint)
        if remembered != nil, await client.currentAccount() != nil {
            // Another account: ask the provider for a fresh login instead of SSO.
            options.prompt = ["login"]
        }
        return try await client.signIn(with: agent, options: options)
    }

    /// One config directory holds the accounts of one provider and client: signing in to
    /// another while accounts remain would mix their sessions in one store.
    private func refuseProviderChange(
        from remembered: CLIProfile?, to profile: CLIProfile, directory: ConfigDirectory
    ) async throws {
        guard let remembered,
            remembered.issuer != profile.issuer || remembered.clientID != profile.clientID
        else { return }
        let accounts = try await ClientSession.open(directory: directory, profile: remembered).client.accounts()
        guard accounts.isEmpty else {
            throw CLIError(
                "this config directory is signed in to \(remembered.issuer.absoluteString) as client \(remembered.clientID)",
                hint: "Run `sesame logout --all` first, pass another --config-dir for \(profile.issuer.absoluteString), or sign the other client in beside it with --sso (single sign-on).")
        }
    }

    private func makeProfile(remembered: CLIProfile?, fallbackIssuer: URL? = nil) throws -> CLIProfile {
        guard let issuerText = issuer ?? remembered?.issuer.absoluteString ?? fallbackIssuer?.absoluteString,
            let clientID = clientID ?? remembered?.clientID
        else {
            throw CLIError(
                "no issuer and client id to sign in with",
                hint: "Pass --issuer URL --client-id ID (they are remembered afterwards).")
        }
        guard let issuerURL = URL(string: issuerText), issuerURL.scheme != nil, issuerURL.host != nil
        else {
            throw CLIError(
                "--issuer '\(issuerText)' is not an absolute URL",
                hint: "Use e.g. https://id.example.com or http://127.0.0.1:8080.")
        }
        let sameProvider =
            remembered.map { $0.issuer == issuerURL && $0.clientID == clientID } ?? false
        let redirect: URL
        if let redirectURI {
            guard let url = URL(string: redirectURI), url.scheme == "http",
                ["127.0.0.1", "[::1]", "::1"].contains(url.host ?? "")
            else {
                throw CLIError(
                    "--redirect-uri '\(redirectURI)' is not a loopback http URI",
                    hint: "Use e.g. http://127.0.0.1:8400/callback (RFC 8252 §7.3; not localhost, §8.3).")
            }
            redirect = url
        } else {
            redirect = (sameProvider ? remembered?.redirectURI : nil) ?? CLIProfile.defaultRedirectURI
        }
        let scopeList = scopes.flatMap { $0.split(separator: " ").map(String.init) }
        let origins = (sameProvider ? remembered?.allowedOrigins ?? [] : []) + allowOrigins
        for origin in allowOrigins { _ = try ClientSession.origin(origin) }
        return CLIProfile(
            issuer: issuerURL, clientID: clientID, redirectURI: redirect,
            scopes: scopeList.isEmpty
                ? (sameProvider ? remembered?.scopes : nil) ?? CLIProfile.defaultScopes
                : scopeList,
            allowedOrigins: Array(Set(origins)).sorted())
    }
}
