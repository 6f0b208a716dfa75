import Foundation
import Hummingbird
import SesameProtocol

/// The user's passkeys through the account API (docs/passkeys.md), bearer access token of a
/// first-party client:
/// - `POST /api/passkeys/options` → WebAuthn creation options (§5.4), the challenge bound to the
///   token's session (its refresh family, or the token itself);
/// - `POST /api/passkeys` with ``PasskeyRegistration`` → 201 ``Passkey`` after §7.1;
/// - `GET /api/passkeys` → ``PasskeyList``;
/// - `PATCH /api/passkeys/{id}` with ``PasskeyRenameRequest`` → ``Passkey``;
/// - `DELETE /api/passkeys/{id}` → 204; 409 `last_sign_in_method` when it is the account's only
///   way to sign in.
struct PasskeysEndpoint: Sendable {
    let provider: Provider
    let bearer: BearerAuthentication

    func options(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (claims, user) = try await bearer.authenticateFirstParty(request, context: context)
        let options = try await provider.passkeys.creationOptions(for: user, binding: Self.binding(claims))
        context.annotations.record(outcome: "passkey_options")
        return JSONResponse.make(options)
    }

    func register(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (claims, user) = try await bearer.authenticateFirstParty(request, context: context)
        let validation = AccountValidation(request: request, localizer: provider.localizer, user: user)
        let registration = try await JSONRequest.decode(
            PasskeyRegistration.self, from: request, context: context, required: ["credential"], validation: validation
        ).value
        let record = try await provider.passkeys.register(
            registration, user: user, binding: Self.binding(claims), origin: RequestOrigin(context))
        context.annotations.record(outcome: "passkey_registered")
        return JSONResponse.make(Passkeys.descriptor(record), status: .created)
    }

    func list(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer.authenticateFirstParty(request, context: context)
        let records = try await provider.passkeys.store.passkeys(userID: user.id)
        return JSONResponse.make(PasskeyList(passkeys: records.map(Passkeys.descriptor)))
    }

    func rename(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer.authenticateFirstParty(request, context: context)
        let validation = AccountValidation(request: request, localizer: provider.localizer, user: user)
        let rename = try await JSONRequest.decode(
            PasskeyRenameRequest.self, from: request, context: context, required: ["name"], validation: validation
        ).value
        let name = rename.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard name.count <= Passkeys.maximumNameLength else {
            throw validation.failure([FieldViolation.tooLong("name", max: Passkeys.maximumNameLength)])
        }
        let passkeys = provider.passkeys
        let id = Self.identifier(context)
        guard try await passkeys.store.renamePasskey(credentialID: id, userID: user.id, name: name),
            let record = try await passkeys.store.passkey(credentialID: id)
        else { throw EndpointFailure(.notFound, "The account has no passkey with this id.") }
        provider.audit.record(.passkeyRenamed, context: context, userID: user.id)
        return JSONResponse.make(Passkeys.descriptor(record))
    }

    func remove(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer.authenticateFirstParty(request, context: context)
        let passkeys = provider.passkeys
        let id = Self.identifier(context)
        let mine = try await passkeys.store.passkeys(userID: user.id)
        guard mine.contains(where: { $0.credentialID == id }) else {
            throw EndpointFailure(.notFound, "The account has no passkey with this id.")
        }
        let linked = try await provider.store.federatedIdentities(userID: user.id).count
        guard user.passwordHash != nil || linked > 0 || mine.count > 1 else {
            throw EndpointFailure(
                .lastSignInMethod, "This passkey is the account's only way to sign in; set a password (POST /api/password/reset) first.")
        }
        try await passkeys.store.removePasskey(credentialID: id, userID: user.id)
        provider.audit.record(.passkeyRemoved, context: context, userID: user.id)
        context.annotations.record(outcome: "passkey_removed")
        return JSONResponse.noContent()
    }

    /// The session a registration challenge is bound to: the token's refresh family (it
    /// survives a refresh between options and answer), else the token itself.
    static func binding(_ claims: AccessTokenClaims) -> String {
        claims.fid.map { "family:" + $0 } ?? "token:" + claims.jti
    }

    private static func identifier(_ context: SesameRequestContext) -> String {
        let raw = context.parameters.get("id") ?? ""
        return raw.removingPercentEncoding ?? raw
    }
}
