import Hummingbird

/// The admin API under `/admin/api/` (issue #47): JSON for the console, `sesame admin` and an
/// operator's scripts, in the OpenAPI document with the account APIs.
struct AdminRoutes: FeatureRoutes {
    let users: AdminUsersEndpoint
    let clients: AdminClientsEndpoint
    let audit: AdminAuditEndpoint
    let providers: AdminProvidersEndpoint
    let apis: AdminAPIsEndpoint
    let credentials: AdminUserCredentialsEndpoint
    let provisioning: AdminUserProvisioningEndpoint
    let bootstrap: AdminBootstrapEndpoint

    func register(on router: Router<SesameRequestContext>) {
        router.get("/admin/api/users", use: users.search)
        router.get("/admin/api/users/{user_id}", use: users.detail)
        router.post("/admin/api/users/{user_id}/disable", use: users.disable)
        router.post("/admin/api/users/{user_id}/enable", use: users.enable)
        router.post("/admin/api/users/{user_id}/unlock", use: users.unlock)
        router.post("/admin/api/users/{user_id}/sessions/end", use: users.endSessions)
        router.delete("/admin/api/users/{user_id}/sessions/{session_id}", use: users.endSession)
        router.post("/admin/api/users/{user_id}/role", use: users.setRole)
        router.delete("/admin/api/users/{user_id}", use: credentials.deleteUser)
        router.post("/admin/api/users", use: provisioning.create)
        router.post("/admin/api/users/{user_id}", use: provisioning.update)
        router.post("/admin/api/users/{user_id}/password-reset", use: provisioning.passwordReset)
        router.post("/admin/api/users/{user_id}/verify-email", use: provisioning.verifyEmail)
        router.delete("/admin/api/users/{user_id}/factors/{method}", use: credentials.removeFactor)
        router.delete("/admin/api/users/{user_id}/passkeys/{credential_id}", use: credentials.removePasskey)
        router.delete("/admin/api/users/{user_id}/pin-registrations/{registration_id}", use: credentials.removePINRegistration)
        router.get("/admin/api/clients", use: clients.list)
        router.post("/admin/api/clients", use: clients.create)
        router.get("/admin/api/clients/{client_id}", use: clients.detail)
        router.post("/admin/api/clients/{client_id}", use: clients.update)
        router.delete("/admin/api/clients/{client_id}", use: clients.delete)
        router.post("/admin/api/clients/{client_id}/secret", use: clients.rotateSecret)
        router.get("/admin/api/keys", use: clients.listKeys)
        router.post("/admin/api/keys/rotate", use: clients.rotateKeys)
        router.post("/admin/api/keys/{kid}/retire", use: clients.retireKey)
        router.get("/admin/api/audit", use: audit.page)
        router.get("/admin/api/audit/export", use: audit.export)
        router.get("/admin/api/overview", use: audit.overview)
        router.post("/admin/api/bootstrap", use: bootstrap.redeem)
        router.get("/admin/api/providers", use: providers.list)
        router.post("/admin/api/providers", use: providers.add)
        router.post("/admin/api/providers/{provider_id}", use: providers.update)
        router.delete("/admin/api/providers/{provider_id}", use: providers.remove)
        router.get("/admin/api/apis", use: apis.list)
        router.post("/admin/api/apis", use: apis.add)
        router.post("/admin/api/apis/{identifier}", use: apis.update)
        router.delete("/admin/api/apis/{identifier}", use: apis.remove)
    }
}
