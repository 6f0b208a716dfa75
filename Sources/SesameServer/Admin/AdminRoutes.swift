import Hummingbird

/// The admin API under `/admin/api/` (issue #47): JSON for the console, `sesame admin` and an
/// operator's scripts, in the OpenAPI document with the account APIs.
struct AdminRoutes: FeatureRoutes {
    let users: AdminUsersEndpoint

    func register(on router: Router<SesameRequestContext>) {
        router.get("/admin/api/users", use: users.search)
        router.get("/admin/api/users/{user_id}", use: users.detail)
        router.post("/admin/api/users/{user_id}/disable", use: users.disable)
        router.post("/admin/api/users/{user_id}/enable", use: users.enable)
        router.post("/admin/api/users/{user_id}/unlock", use: users.unlock)
        router.post("/admin/api/users/{user_id}/sessions/end", use: users.endSessions)
        router.delete("/admin/api/users/{user_id}/sessions/{session_id}", use: users.endSession)
        router.post("/admin/api/users/{user_id}/role", use: users.setRole)
    }
}
