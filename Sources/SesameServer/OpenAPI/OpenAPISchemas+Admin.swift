import Foundation
import SesameProtocol

extension OpenAPISchemas {
    /// The admin API's wire types (issue #47), inferred from a full and a minimal value of each.
    static func adminTypes(into catalog: inout Catalog) {
        let full = AdminUserSummary(
            id: "u", username: "alice", email: "alice@example.com", emailVerified: true, name: "Alice", createdAt: 1,
            disabledAt: 2, role: "helpdesk", matchedBy: "username")
        let minimal = AdminUserSummary(
            id: "u", username: "alice", email: "alice@example.com", emailVerified: false, name: nil, createdAt: 1,
            disabledAt: nil, role: nil, matchedBy: nil)
        catalog.add("AdminUserSummary", full, minimal, "A user as the admin API lists them; times are seconds since 1970.")
        catalog.add(
            "AdminUserPage", AdminUserPage(users: [full], nextCursor: "c"), AdminUserPage(users: [], nextCursor: nil),
            "A page of users; next_cursor is absent on the last page.")
        let pin = AdminPINRegistration(id: "p", clientID: "app", label: "Phone", createdAt: 1, lastUsedAt: 2, failures: 0)
        let session = AdminSession(id: "s", clientID: "app", lastUsedAt: 1)
        let passkey = Passkey(
            id: "k", name: "Key", createdAt: 1, lastUsedAt: 2, backupEligible: true, backedUp: true, keyKind: "swk", locked: false)
        catalog.add(
            "AdminUserDetail",
            AdminUserDetail(
                user: full, phoneNumber: "+4712345678", phoneNumberVerified: true, updatedAt: 1, lastSignInAt: 2, hasPassword: true,
                factors: [MFAEnrollmentStatus(method: .sms, confirmed: true, destination: "+47******78")], passkeys: [passkey],
                pinRegistrations: [pin], devices: [Device(deviceID: "d", name: "Watch", type: "watchos", createdAt: 1)],
                federatedIdentities: [LinkedIdentity(provider: "google", subject: "g", email: "a@gmail.com", linkedAt: 1)],
                sessions: [session]),
            AdminUserDetail(
                user: minimal, phoneNumber: nil, phoneNumberVerified: nil, updatedAt: 1, lastSignInAt: nil, hasPassword: false,
                factors: [], passkeys: [], pinRegistrations: [], devices: [], federatedIdentities: [], sessions: []),
            "Everything the help desk sees of a user; never a secret.")
        catalog.add("AdminPINRegistration", pin, AdminPINRegistration(id: "p", clientID: "app", label: nil, createdAt: 1, lastUsedAt: nil, failures: 0), "A PIN device.")
        catalog.add("AdminSession", session, session, "A live session (one refresh-token family).")
        catalog.add(
            "AdminUserChange", AdminUserChange(user: full, sessionsEnded: 2), AdminUserChange(user: minimal, sessionsEnded: 0),
            "The user after an operator's change, and how many sessions it ended.")
        var client = AdminClient(
            clientID: "app", name: "App", type: "confidential", redirectURIs: ["https://app.example.com/cb"],
            postLogoutRedirectURIs: ["https://app.example.com/"], grantTypes: ["authorization_code"], scopes: ["openid"],
            tokenEndpointAuthMethod: "client_secret_basic", idTokenSigningAlg: "RS256", accessTokenSigningAlg: "RS256",
            mfaPolicy: "when_enrolled", firstParty: true, appGroup: "acme", accessTokenLifetime: 900, idTokenLifetime: 900,
            refreshTokenLifetime: 2_592_000, requirePushedRequests: false, dpopBoundAccessTokens: false,
            securityProfile: "standard", introspectsAnyToken: false, deviceCodeLifetime: 600, devicePollInterval: 5,
            clientSecret: "s", pinPolicy: PINPolicy())
        client.tlsClientAuthSubject = .subjectDN("CN=app,O=Example")
        client.resources = ["https://shop-api.example.com"]
        client.defaultResource = "https://shop-api.example.com"
        var minimalClient = client
        minimalClient.resources = nil
        minimalClient.defaultResource = nil
        minimalClient.tlsClientAuthSubject = nil
        minimalClient.pinPolicy = nil
        minimalClient.appGroup = nil
        minimalClient.deviceCodeLifetime = nil
        minimalClient.devicePollInterval = nil
        minimalClient.clientSecret = nil
        catalog.add("AdminClient", client, minimalClient, "A client with every setting; client_secret only when it was just made.")
        catalog.add("AdminClientList", AdminClientList(clients: [client]), AdminClientList(clients: []), "Every client, by id.")
        catalog.add(
            "AdminClientUpdate",
            AdminClientUpdate(
                name: "App", redirectURIs: ["https://app.example.com/cb"], postLogoutRedirectURIs: [], grantTypes: ["authorization_code"],
                scopes: ["openid"], mfaPolicy: "always", firstParty: true, accessTokenLifetime: 900, idTokenLifetime: 900,
                refreshTokenLifetime: 3600, requirePushedRequests: true, dpopBoundAccessTokens: true, appGroup: "group.example",
                idTokenSigningAlg: "ES256", accessTokenSigningAlg: "ES256", securityProfile: "fapi2",
                jwks: #"{"keys": []}"#, clientID: "app", confidential: false,
                pinPolicy: AdminPINPolicyUpdate(
                    restoreDefaults: false, minimumLength: 6, maximumAttempts: 5, maximumRepeatedDigits: 2, forbidsSequences: true,
                    blacklist: ["314159"]), resources: ["https://shop-api.example.com"],
                defaultResource: "https://shop-api.example.com"),
            AdminClientUpdate(), "The settings to change; absent ones stay.")
        let key = AdminSigningKey(kid: "k", algorithm: "RS256", createdAt: 1, activatesAt: 1, retiredAt: 2, expiresAt: 3)
        catalog.add("AdminSigningKey", key, AdminSigningKey(kid: "k", algorithm: "ES256", createdAt: 1, activatesAt: 1, retiredAt: nil, expiresAt: nil), "A signing key; never the private key.")
        catalog.add(
            "AdminBootstrapRequest", AdminBootstrapRequest(code: "ABCDE-FGHJK-LMNPQ-RSTUV"), AdminBootstrapRequest(code: "x"),
            "The one-time code sesame serve printed.")
        catalog.add(
            "AdminBootstrapResult", AdminBootstrapResult(userID: "u", role: "admin"), AdminBootstrapResult(userID: "u", role: "admin"),
            "Who became administrator.")
        catalog.add(
            "AdminKeyRetirement", AdminKeyRetirement(immediately: true), AdminKeyRetirement(),
            "immediately: leave the key set now (a compromised key); otherwise after the longest token lifetime.")
        catalog.add("AdminSigningKeyList", AdminSigningKeyList(keys: [key]), AdminSigningKeyList(keys: []), "The keys, newest first.")
        let record = AdminAuditRecord(
            time: 1.5, event: "admin.user_disabled", reason: "r", clientAddress: "203.0.113.7", clientID: "app", userID: "u",
            requestID: "q", detail: ["actor": "a"])
        catalog.add(
            "AdminAuditRecord", record,
            AdminAuditRecord(time: 1.5, event: "sign_in.failed", reason: nil, clientAddress: nil, clientID: nil, userID: nil, requestID: nil, detail: [:]),
            "One audit record; never a secret.")
        catalog.add("AdminAuditPage", AdminAuditPage(records: [record], nextCursor: "5"), AdminAuditPage(records: [], nextCursor: nil), "Newest first.")
        let series = AdminSeries(name: "sign_ins", counts: [0, 3])
        let reason = AdminReasonCount(reason: "invalid_credentials", count: 2)
        let health = AdminHealth(
            database: "ok", signingKeyAges: ["RS256": 86400],
            processes: [AdminProcess(host: "id-1.example.com", pid: 4242, startedAt: 1, lastSeen: 2)])
        catalog.add("AdminSeries", series, AdminSeries(name: "failures", counts: []), "One count per interval, oldest first.")
        catalog.add("AdminReasonCount", reason, reason, "How often sign-ins failed for one reason.")
        catalog.add("AdminHealth", health, AdminHealth(database: "ok", signingKeyAges: [:]), "The database and the signing keys' ages.")
        catalog.add(
            "AdminOverview",
            AdminOverview(
                window: "day", since: 1, intervalSeconds: 3600, series: [series], failureReasons: [reason], users: 3,
                liveSessions: 1, health: health),
            AdminOverview(
                window: "hour", since: 1, intervalSeconds: 300, series: [], failureReasons: [], users: 0, liveSessions: 0,
                health: health),
            "The console's home page: counts per interval of the window.")
        let provider = AdminFederationProvider(
            id: "acme", kind: "oidc", issuer: "https://id.acme.example", audiences: ["sesame"], jwksURI: "https://id.acme.example/jwks",
            requiredClaim: "email", allowUnverifiedEmail: false, linkByEmail: true, displayName: "Acme", brokerClientID: "sesame",
            hasBrokerSecret: true, createdAt: 1)
        var minimalProvider = provider
        minimalProvider.jwksURI = nil
        minimalProvider.brokerClientID = nil
        catalog.add("AdminFederationProvider", provider, minimalProvider, "A federation provider; never its broker secret.")
        catalog.add(
            "AdminFederationProviderList", AdminFederationProviderList(providers: [provider]), AdminFederationProviderList(providers: []),
            "The providers, by id.")
        catalog.add(
            "AdminFederationProviderSpec",
            AdminFederationProviderSpec(
                id: "acme", kind: "oidc", issuer: "https://id.acme.example", audiences: ["sesame"], jwksURI: "https://id.acme.example/jwks",
                requiredClaim: "email", allowUnverifiedEmail: false, linkByEmail: true, displayName: "Acme", brokerClientID: "sesame",
                brokerClientSecret: "secret"),
            AdminFederationProviderSpec(), "A provider's settings; absent ones stay (id and kind are required to register).")
        let api = AdminAPI(
            identifier: "https://shop-api.example.com", name: "Shop", scopes: ["orders:read", "orders:write"], createdAt: 1)
        catalog.add("AdminAPI", api, AdminAPI(identifier: "https://a.example", name: "A", scopes: [], createdAt: 1), "A registered API (RFC 8707).")
        catalog.add("AdminAPIList", AdminAPIList(apis: [api]), AdminAPIList(apis: []), "The APIs, by identifier.")
        catalog.add(
            "AdminAPISpec", AdminAPISpec(identifier: "https://shop-api.example.com", name: "Shop", scopes: ["orders:read"]),
            AdminAPISpec(), "An API's members; absent ones stay (identifier is required to register).")
        catalog.add(
            "AdminUserProfile",
            AdminUserProfile(username: "alice", email: "alice@example.com", emailVerified: true, name: "Alice", password: "a long passphrase"),
            AdminUserProfile(), "Profile fields; absent ones stay (username and email required to create; a password only to create).")
        catalog.add(
            "AdminRoleUpdate", AdminRoleUpdate(role: "helpdesk"), AdminRoleUpdate(role: nil),
            "The role to grant (admin, helpdesk, auditor), or null to take it away.")
    }
}
