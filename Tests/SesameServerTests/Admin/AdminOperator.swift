import Foundation
import SesameProtocol
import SesameTesting
import Testing
@testable import SesameServer

/// An operator of the admin API in tests: a first-party client that may ask for `sesame:admin`
/// and always asks for a second factor, a user with a role, and the access token of their
/// sign-in with a password and an emailed code (acr multi-factor), as `sesame admin login`
/// would get one.
struct AdminOperator {
    static let clientID = "admin-tool"
    let http: HTTPTestClient
    let user: UserRecord
    let accessToken: String

    var auth: [String: String] { ["Authorization": "Bearer \(accessToken)"] }

    /// Registers the admin client (once per server) and signs `username` in with `role`
    /// (`nil`: no role) and `scope`.
    static func signIn(
        _ server: TestServer, username: String, role: AdminRole?, scope: String = "openid sesame:admin",
        secondFactor: Bool = true
    ) async throws -> AdminOperator {
        if try await server.store.client(id: clientID) == nil {
            try await server.store.upsertClient(
                ClientRecord(
                    clientID: clientID, name: "Admin tool", redirectURIs: ["com.example.admin:/cb"],
                    allowedScopes: ClientRecord.defaultAllowedScopes + ["sesame:admin"], mfaPolicy: .whenEnrolled,
                    firstParty: true))
        }
        let user = try await server.addMFATestUser(username)
        if let role { try await server.store.setAdminRole(role, userID: user.id, grantedBy: "test", at: Date()) }
        var flow = ChallengeFlow(server, clientID: clientID)
        flow.scope = scope
        let first = try await flow.start(
            username: username, extra: secondFactor ? ["acr_values": AuthenticationContextClass.multiFactor] : [:])
        let code: String
        if secondFactor {
            let session = try #require(try ChallengeFlow.error(first).authSession, "expected an MFA step: \(first.text)")
            _ = try await flow.choose(session, .email)
            code = try ChallengeFlow.code(try await flow.verify(session, code: try await server.lastMFACode(to: user.email)))
        } else {
            code = try ChallengeFlow.code(first)
        }
        let tokens = try await flow.tokens(code)
        return AdminOperator(http: server.client(), user: user, accessToken: tokens.accessToken)
    }

    func get(_ path: String, query: [String: String] = [:]) async throws -> TestResponse {
        try await http.get(path, query: query, headers: auth)
    }

    func post(_ path: String, json: String? = nil) async throws -> TestResponse {
        try await http.post(
            path, body: Data((json ?? "").utf8),
            headers: auth.merging(json == nil ? [:] : ["Content-Type": "application/json"]) { $1 })
    }

    func delete(_ path: String) async throws -> TestResponse {
        try await http.request("DELETE", path, headers: auth)
    }
}
