/// The declared layering of the package, bottom-up: the order the README's module map describes.
/// A module uses only modules listed before it, and inside a module a folder uses only folders
/// listed before it in its module's list (`FolderDependencyTests`, `ModuleGraphTests`). A new
/// folder or module is placed here; a failure names the arrow that goes up or the cycle.
enum DeclaredLayers {
    /// The modules under `Sources/`, bottom-up.
    static let modules = [
        "SesameProtocol", "SesameJOSE", "ChildProcess", "HTTP1Client", "Sesame", "SesameLoopback", "SesameNIOTransport", "ScriptedBrowser",
        "SesameResourceServer", "SesameResourceServerHummingbird", "SesameResourceServerSQL", "ExampleAPI", "SesameStore",
        "SesameProvider",
        "SesameServer", "SesameCLI",
    ]

    /// Each module's top-level folders, bottom-up ("." is the module folder itself).
    static let folders: [String: [String]] = [
        "SesameProtocol": [
            "Concurrency", "Claims", "Discovery", "Encoding", "Registration", "MutualTLS", "DPoP", "Federation", "NativeSSO", "PIN", "Tokens", "FirstParty", "Security",
            "DeviceAuthorization", "WebAuthn", "Accounts", "Errors", "PKCE", "Admin",
        ],
        "SesameJOSE": ["."],
        "ChildProcess": ["."],
        "HTTP1Client": ["."],
        "Sesame": [
            ".", "Errors", "Logging", "Pinning", "Configuration", "Storage", "Time", "DPoP", "Analytics", "AppTokens", "Browser",
            "HTTP", "Discovery", "DeviceAuthorization", "Tokens", "Validation", "Session", "Protection", "WebAuthn", "FirstParty", "Client",
            "PIN", "Passkeys", "MFA", "Accounts", "SSO", "Federation", "Platform",
        ],
        "SesameLoopback": ["."],
        "SesameNIOTransport": ["."],
        "ScriptedBrowser": ["."],
        "SesameResourceServer": ["."],
        "SesameResourceServerHummingbird": ["."],
        "SesameResourceServerSQL": ["."],
        "ExampleAPI": ["."],
        "SesameStore": [
            "AtRest", "Records", "Location", "Protocols", "SQL", "Migrations", "PostgreSQL", "SQLite", "SQLIdentityStore",
        ],
        "SesameProvider": [
            "Failures", "Resources", "MutualTLS", "Localization", "Keys", "Maintenance", "Security", "DPoP", "Users", "Audit", "Messaging", "Protection", "Admin",
            "PIN", "Passkeys", "Tokens", "Config", "Federation", "NativeSSO", "Policy", "Registration", "DeviceAuthorization", "Grants",
            "PushedRequests", "PendingAuthorizations", "MFA", "Accounts", "Operators", "Composition",
        ],
        "SesameServer": [
            "Adapters", "Localization", "Messaging", "HTTP", "Observability", "Web", "Protection", "Authentication",
            "Protocol", "Passkeys", "SignIn", "Accounts", "Federation", "FirstParty", "PIN", "DeviceAuthorization", "Admin", "OpenAPI",
            "Server",
        ],
        "SesameCLI": ["Support", "Commands", "."],
    ]

    /// How many of the SDK's folders its client core (`Sesame/Client`: sessions, tokens,
    /// `data(for:)`, events and the sign-in flows) may use; the capabilities' handles (PIN,
    /// passkeys, MFA, account, SSO, federation) sit above it and own their logic. Lower it when
    /// the core shrinks.
    static let clientFolderCap = 17

    /// Per module, folders that are sibling features: none uses another (what two of them need
    /// sits in a shared folder below them), in either direction.
    static let siblingFeatures: [String: Set<String>] = [
        "SesameServer": ["Accounts", "Federation", "FirstParty", "PIN", "Passkeys", "DeviceAuthorization", "Admin"],
        "Sesame": ["PIN", "Passkeys", "MFA", "Accounts", "SSO", "Federation"],
        "SesameProvider": ["PIN", "Passkeys", "Federation", "NativeSSO", "DeviceAuthorization", "PushedRequests"],
    ]
}
