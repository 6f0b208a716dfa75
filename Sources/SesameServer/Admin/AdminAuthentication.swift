import Foundation
import Hummingbird
import SesameProtocol

/// Who is calling the admin API (issue #47): an operator's access token from this server, with
/// the `sesame:admin` scope, signed in with a second factor or a passkey (`acr` multi-factor),
/// whose user holds an ``AdminRole``. Each refusal says what is missing:
/// - no or a bad token: 401 `invalid_token` (``BearerAuthentication``; a disabled operator's
///   tokens are refused there too);
/// - a token without the scope: 403 `insufficient_scope`;
/// - a sign-in without a second factor: 401 with RFC 9470's `insufficient_user_authentication`
///   challenge naming the `acr_values` to sign in with;
/// - a user without a role: 403 `admin_role_required` (1034).
///
/// Every refusal after the token is recorded in the audit log as `admin.refused`.
struct AdminAuthentication: Sendable {
    let bearer: BearerAuthentication
    let provider: Provider

    /// The scope an admin API token carries (a client must be allowed it).
    static let scope = AdminConsoleClient.scope

    func authenticate(_ request: Request, context: SesameRequestContext) async throws -> AdminActor {
        let claims = try await bearer.authenticateToken(request, context: context)
        if claims.isClientOnly { return try await authorizeClient(claims, context: context) }
        let user = try await bearer.user(of: claims, context: context)
        return try await authorize(claims: claims, user: user, context: context)
    }

    /// Automation: a confidential client's own `client_credentials` token (DPoP-bound where the
    /// client is, checked by ``BearerAuthentication``) with the admin scope, for a client an
    /// operator gave a role (`sesame client role`). No person signs in, so no second factor;
    /// the token's issue time stands for the sign-in a destructive change needs.
    private func authorizeClient(_ claims: AccessTokenClaims, context: SesameRequestContext) async throws -> AdminActor {
        guard claims.scopes.contains(Self.scope) else {
            refuse("missing_scope", user: claims.clientID, context: context)
            throw EndpointFailure(
                .insufficientScope, "The access token lacks the \(Self.scope) scope; ask for it in the client_credentials request.",
                headers: [.wwwAuthenticate: #"Bearer realm="sesame", error="insufficient_scope", scope="\#(Self.scope)""#])
        }
        guard let role = try await provider.store.adminRole(userID: claims.clientID) else {
            refuse("no_role", user: claims.clientID, context: context)
            throw EndpointFailure(
                .adminRoleRequired,
                "The client \(claims.clientID) has no operator role; an administrator grants one (sesame client role \(claims.clientID) auditor).")
        }
        return AdminActor(userID: claims.clientID, role: role, authTime: Date(timeIntervalSince1970: TimeInterval(claims.iat)))
    }

    /// The operator of the admin console's session (its cookie holds the console's own access
    /// token, ``AdminConsoleClient``), checked as a presented token is.
    func authenticate(sessionToken token: String, context: SesameRequestContext) async throws -> AdminActor {
        let (claims, user) = try await bearer.authenticate(sessionToken: token, context: context)
        return try await authorize(claims: claims, user: user, context: context)
    }

    /// The user of an admin token that may hold no role yet: the first administrator's
    /// bootstrap (``AdminBootstrap``). Scope and second factor are checked as for an operator.
    func candidate(_ request: Request, context: SesameRequestContext) async throws -> UserRecord {
        let (claims, user) = try await bearer.authenticate(request, context: context)
        try checkSignIn(claims: claims, user: user, context: context)
        return user
    }

    /// ``candidate(_:context:)`` for the console's session token.
    func candidate(sessionToken token: String, context: SesameRequestContext) async throws -> UserRecord {
        let (claims, user) = try await bearer.authenticate(sessionToken: token, context: context)
        try checkSignIn(claims: claims, user: user, context: context)
        return user
    }

    private func authorize(claims: AccessTokenClaims, user: UserRecord, context: SesameRequestContext) async throws -> AdminActor {
        try checkSignIn(claims: claims, user: user, context: context)
        guard let role = try await provider.store.adminRole(userID: user.id) else {
            refuse("no_role", user: user.id, context: context)
            throw EndpointFailure(
                .adminRoleRequired,
                "\(user.username) has no operator role; an administrator grants one (sesame user role \(user.username) helpdesk).")
        }
        return AdminActor(
            userID: user.id, role: role, authTime: claims.authTime.map { Date(timeIntervalSince1970: TimeInterval($0)) })
    }

    /// The admin scope and a sign-in with a second factor.
    private func checkSignIn(claims: AccessTokenClaims, user: UserRecord, context: SesameRequestContext) throws {
        guard claims.scopes.contains(Self.scope) else {
            refuse("missing_scope", user: user.id, context: context)
            throw EndpointFailure(
                .insufficientScope, "The access token lacks the \(Self.scope) scope; sign in to the admin API with it.",
                headers: [.wwwAuthenticate: #"Bearer realm="sesame", error="insufficient_scope", scope="\#(Self.scope)""#])
        }
        guard claims.acr == AuthenticationContextClass.multiFactor else {
            refuse("second_factor_required", user: user.id, context: context)
            throw EndpointFailure(
                .insufficientAuthorization,
                "The admin API needs a sign-in with a second factor or a passkey; sign in again with acr_values=\(AuthenticationContextClass.multiFactor).",
                status: .unauthorized,
                headers: [
                    .wwwAuthenticate:
                        #"Bearer realm="sesame", error="insufficient_user_authentication", acr_values="\#(AuthenticationContextClass.multiFactor)""#
                ])
        }
    }

    /// Runs `body` as the operator, recording a refusal of the role in the audit log.
    func perform<T: Sendable>(
        _ request: Request, context: SesameRequestContext, _ body: (AdminActor) async throws -> T
    ) async throws -> T {
        try await perform(try await authenticate(request, context: context), context: context, body)
    }

    /// Runs `body` as `actor`, already authenticated.
    func perform<T: Sendable>(
        _ actor: AdminActor, context: SesameRequestContext, _ body: (AdminActor) async throws -> T
    ) async throws -> T {
        do {
            return try await body(actor)
        } catch let failure as ProviderFailure where failure.code == .adminRoleRequired {
            refuse("role_not_allowed", user: actor.userID, context: context, role: actor.role)
            throw failure
        } catch let failure as ProviderFailure where failure.code == .insufficientAuthorization {
            // A destructive change after an old sign-in: RFC 9470 §3 asks for a fresh one.
            refuse("recent_sign_in_required", user: actor.userID, context: context, role: actor.role)
            throw EndpointFailure(
                failure, status: .unauthorized,
                headers: [
                    .wwwAuthenticate:
                        #"Bearer realm="sesame", error="insufficient_user_authentication", acr_values="\#(AuthenticationContextClass.multiFactor)", max_age=\#(Int(AdminActor.recentSignIn))"#
                ])
        }
    }

    private func refuse(_ reason: String, user: String, context: SesameRequestContext, role: AdminRole? = nil) {
        context.annotations.record(outcome: "admin_" + reason)
        var detail = ["path": context.endpointPath ?? ""]
        if let role { detail["role"] = role.rawValue }
        provider.audit.record(.adminRefused, reason: reason, origin: RequestOrigin(context), userID: user, detail: detail)
    }
}
