import ArgumentParser

/// The `sesame` command-line tool: run the identity server, try it end to end with
/// `demo`, and sign in from a terminal like `gh auth` / `gcloud auth`.
@main
struct SesameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sesame",
        abstract: "Sesame: an OpenID Connect identity server and its command-line client.",
        discussion: """
            First five minutes: `sesame demo` runs a full sign-in against a throwaway server.

            Client commands keep state in --config-dir (else $SESAME_CONFIG_DIR, else \
            $XDG_CONFIG_HOME/sesame, else ~/.config/sesame). Server commands use --data-dir \
            (default ./.sesame).

            Results go to stdout (--json for scripts), progress and errors to stderr. Exit \
            status: 0 success; 1 failure; 2 not signed in; 22 `curl` got HTTP >= 400; 64 bad \
            usage. Set SESAME_LOG_LEVEL=debug to see SDK logs (secrets are redacted).
            """,
        version: "0.1.0",
        subcommands: [
            ServeCommand.self, DemoCommand.self,
            LoginCommand.self, WhoamiCommand.self, TokenCommand.self, ClientKeyCommand.self, AccountsCommand.self,
            SwitchCommand.self, LogoutCommand.self, CurlCommand.self, ExampleAPICommand.self,
            SignUpCommand.self, ProfileCommand.self, PINCommand.self, PasskeyCommand.self,
            ClientCommand.self, APICommand.self, RegistrationCommand.self, UserCommand.self, ProviderCommand.self, KeysCommand.self, OutboxCommand.self, AuditCommand.self, DatabaseCommand.self,
            AdminCommand.self,
        ])
}
