import ArgumentParser
import Foundation
import SesameProtocol

/// `sesame admin clients` and `sesame admin keys`: clients and signing keys through the admin
/// API (docs/admin.md); an edit is validated as a new client is and seen by the next `/authorize`.
struct AdminClientsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clients", abstract: "List, show and edit clients; rotate a secret.",
        subcommands: [List.self, Show.self, Edit.self, RotateSecret.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every client.")
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let list = try await AdminAPIClient.open(configDir).get("/admin/api/clients", as: AdminClientList.self)
                if json.enabled { return try Terminal.json(list) }
                for client in list.clients {
                    Terminal.out("\(client.clientID)  \(client.type)\(client.firstParty ? ", first-party" : "")  \(client.name)")
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One client's settings.")
        @Argument(help: "The client id.") var clientID: String
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let client = try await AdminAPIClient.open(configDir).get(
                    "/admin/api/clients/" + AdminUsersCommand.escape(clientID), as: AdminClient.self)
                if json.enabled { return try Terminal.json(client) }
                AdminClientsCommand.print(client)
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a client's settings; the others stay.",
            discussion: "Example: sesame admin clients edit shop --add-redirect-uri https://shop.example.com/cb --mfa-policy always")
        @Argument(help: "The client id.") var clientID: String
        @Option(help: "The name users see.") var name: String?
        @Option(name: .customLong("redirect-uri"), help: "The redirect URIs, replacing the list (repeatable).")
        var redirectURIs: [String] = []
        @Option(name: .customLong("add-redirect-uri"), help: "Add a redirect URI (repeatable).") var added: [String] = []
        @Option(name: .customLong("remove-redirect-uri"), help: "Remove a redirect URI (repeatable).") var removed: [String] = []
        @Option(name: .customLong("post-logout-redirect-uri"), help: "The post-logout redirect URIs, replacing the list (repeatable).")
        var postLogout: [String] = []
        @Option(name: .customLong("scope"), help: "The scopes it may ask for, replacing the list (repeatable).") var scopes: [String] = []
        @Option(name: .customLong("mfa-policy"), help: "never, when_enrolled or always.") var mfaPolicy: String?
        @Option(name: .customLong("require-par"), help: "true or false: pushed authorization requests only.") var requirePAR: Bool?
        @Option(name: .customLong("dpop"), help: "true or false: bind access tokens to a DPoP key.") var dpop: Bool?
        @Option(name: .customLong("access-token-lifetime"), help: "Seconds.") var accessTokenLifetime: Int?
        @Option(name: .customLong("pin-length"), help: "Device PINs: the fewest digits (4-12).") var pinLength: Int?
        @Option(name: .customLong("pin-max-attempts"), help: "Device PINs: wrong PINs in a row before the registration is revoked (1-10).")
        var pinMaxAttempts: Int?
        @Flag(name: .customLong("pin-defaults"), help: "Device PINs: put back the default policy first.") var pinDefaults = false
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption

        func validate() throws {
            if !redirectURIs.isEmpty, !(added.isEmpty && removed.isEmpty) {
                throw ValidationError("--redirect-uri replaces the list; drop --add-redirect-uri and --remove-redirect-uri.")
            }
        }

        func run() async throws {
            try await reportingErrors {
                let admin = try AdminAPIClient.open(configDir)
                let path = "/admin/api/clients/" + AdminUsersCommand.escape(clientID)
                var update = AdminClientUpdate(
                    name: name, postLogoutRedirectURIs: postLogout.isEmpty ? nil : postLogout, scopes: scopes.isEmpty ? nil : scopes,
                    mfaPolicy: mfaPolicy, accessTokenLifetime: accessTokenLifetime, requirePushedRequests: requirePAR,
                    dpopBoundAccessTokens: dpop)
                if pinDefaults || pinLength != nil || pinMaxAttempts != nil {
                    update.pinPolicy = AdminPINPolicyUpdate(
                        restoreDefaults: pinDefaults ? true : nil, minimumLength: pinLength, maximumAttempts: pinMaxAttempts)
                }
                if !redirectURIs.isEmpty {
                    update.redirectURIs = redirectURIs
                } else if !added.isEmpty || !removed.isEmpty {
                    let current = try await admin.get(path, as: AdminClient.self).redirectURIs
                    update.redirectURIs = current.filter { !removed.contains($0) } + added.filter { !current.contains($0) }
                }
                guard update != AdminClientUpdate() else {
                    throw CLIError("nothing to change", hint: "Name a setting, e.g. --add-redirect-uri or --mfa-policy.")
                }
                let client = try await admin.post(path, json: update, as: AdminClient.self)
                if json.enabled { return try Terminal.json(client) }
                Terminal.progress("Saved; the next authorization request sees the change.")
                AdminClientsCommand.print(client)
            }
        }
    }

    struct RotateSecret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-secret", abstract: "A new secret for a confidential client, printed once.")
        @Argument(help: "The client id.") var clientID: String
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let client = try await AdminAPIClient.open(configDir).post(
                    "/admin/api/clients/\(AdminUsersCommand.escape(clientID))/secret", as: AdminClient.self)
                if json.enabled { return try Terminal.json(client) }
                Terminal.progress("The old secret no longer works. The new one is shown only now:")
                Terminal.out(client.clientSecret ?? "")
            }
        }
    }

    static func print(_ client: AdminClient) {
        Terminal.table([
            ("client_id", client.clientID), ("name", client.name), ("type", client.type),
            ("redirect_uris", client.redirectURIs.joined(separator: " ")),
            ("post_logout_redirect_uris", client.postLogoutRedirectURIs.joined(separator: " ")),
            ("grant_types", client.grantTypes.joined(separator: " ")), ("scopes", client.scopes.joined(separator: " ")),
            ("mfa_policy", client.mfaPolicy), ("first_party", String(client.firstParty)),
            ("require_par", String(client.requirePushedRequests)), ("dpop", String(client.dpopBoundAccessTokens)),
            ("access_token_lifetime", String(client.accessTokenLifetime)),
            ("pin_policy", client.pinPolicy.map { "at least \($0.minimumLength) digits, \($0.maximumAttempts) attempts" } ?? ""),
        ])
    }
}

/// `sesame admin audit`: the server's audit log, newest first.
struct AdminAuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "The audit log of a running server, newest first.",
        discussion: "Example: sesame admin audit --user alice --since 1h")
    @Option(help: "Only records about this user (an id, username or email).") var user: String?
    @Option(name: .customLong("client"), help: "Only records of this client id.") var clientID: String?
    @Option(name: .customLong("event"), help: "Only this event, or an area ending in '.' (repeatable).") var events: [String] = []
    @Option(help: ArgumentHelp("Since then: 90s, 15m, 1h, 7d or an ISO 8601 time.", valueName: "time")) var since: String?
    @Option(help: "At most this many records (1-500).") var limit: Int = 100
    @OptionGroup var configDir: ConfigDirOption
    @OptionGroup var json: JSONOption

    func validate() throws {
        guard (1...500).contains(limit) else { throw ValidationError("--limit is 1 to 500.") }
    }

    func run() async throws {
        try await reportingErrors {
            let admin = try AdminAPIClient.open(configDir)
            var query = ["limit": String(limit)]
            if let user { query["user_id"] = try await admin.user(user).id }
            if let clientID { query["client_id"] = clientID }
            if !events.isEmpty { query["event"] = events.joined(separator: ",") }
            if let since { query["since"] = String(Int(try AuditCommand.parseSince(since, now: Date()).timeIntervalSince1970)) }
            let page = try await admin.get("/admin/api/audit", query: query, as: AdminAuditPage.self)
            if json.enabled { return try Terminal.json(page) }
            if page.records.isEmpty { Terminal.out("No matching audit records.") }
            for record in page.records {
                let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: record.time))
                var parts = [time, record.event]
                if let reason = record.reason { parts.append("reason=\(reason)") }
                if let user = record.userID { parts.append("user=\(user)") }
                if let client = record.clientID { parts.append("client=\(client)") }
                if let address = record.clientAddress { parts.append("from=\(address)") }
                parts += record.detail.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                Terminal.out(parts.joined(separator: " "))
            }
        }
    }
}
