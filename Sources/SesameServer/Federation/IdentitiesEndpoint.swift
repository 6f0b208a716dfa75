import Foundation
import Hummingbird
import SesameProtocol

/// The provider identities linked to the user's account (docs/federation.md), bearer access
/// token of a first-party client:
/// - `GET /api/identities` → ``LinkedIdentityList``, oldest first;
/// - `DELETE /api/identities/{provider}/{subject}` → 204; 404 `not_found` when no such link;
///   409 `last_sign_in_method` (3007) when it is the account's only way to sign in (no password
///   and no other link): set a password first.
struct IdentitiesEndpoint: Sendable {
    let provider: Provider
    let bearer: BearerAuthentication

    func list(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer.authenticateFirstParty(request, context: context)
        let identities = try await provider.store.federatedIdentities(userID: user.id).map {
            LinkedIdentity(
                provider: $0.providerID, subject: $0.subject, email: $0.email,
                linkedAt: Int($0.linkedAt.timeIntervalSince1970))
        }
        return JSONResponse.make(LinkedIdentityList(identities: identities))
    }

    func unlink(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer.authenticateFirstParty(request, context: context)
        let providerID = Self.parameter("provider", context)
        let subject = Self.parameter("subject", context)
        let links = try await provider.store.federatedIdentities(userID: user.id)
        guard links.contains(where: { $0.providerID == providerID && $0.subject == subject }) else {
            throw EndpointFailure(.notFound, "No identity of this provider and subject is linked to the account.")
        }
        guard user.passwordHash != nil || links.count > 1 else {
            throw EndpointFailure(
                .lastSignInMethod, "This is the account's only way to sign in; set a password (POST /api/password/reset) first.")
        }
        try await provider.store.unlinkFederatedIdentity(providerID: providerID, subject: subject)
        provider.audit.record(.federationUnlinked, context: context, userID: user.id, detail: ["provider": providerID])
        context.annotations.record(outcome: "identity_unlinked")
        return JSONResponse.noContent()
    }

    private static func parameter(_ name: String, _ context: SesameRequestContext) -> String {
        let raw = context.parameters.get(name) ?? ""
        return raw.removingPercentEncoding ?? raw
    }
}
