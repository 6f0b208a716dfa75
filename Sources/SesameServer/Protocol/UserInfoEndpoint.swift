import Foundation
import Hummingbird
import SesameProtocol

/// The UserInfo endpoint, `GET`/`POST /userinfo` (OIDC Core §5.3). The access token is
/// accepted only in the `Authorization: Bearer` header (RFC 6750 §2.1; never in a URL,
/// RFC 9700 §4.3.2). The claims released are those of the scopes (OIDC Core §5.4) and those the
/// `claims` request parameter asked for here (§5.5, carried by the access token); `sub` is
/// always the user id, equal to the ID token's `sub`.
struct UserInfoEndpoint: Sendable {
    let bearer: BearerAuthentication

    func handle(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (claims, user) = try await bearer
            .authenticate(request, context: context)
        guard claims.scopes.contains("openid") else {
            throw EndpointFailure(
                .insufficientScope, "The access token lacks the openid scope.",
                headers: [.wwwAuthenticate: #"Bearer error="insufficient_scope", scope="openid""#])
        }
        context.annotations.record(outcome: "userinfo")
        let names = ClaimRelease.names(forScopes: claims.scopes).union(claims.userinfoClaims ?? [])
        return JSONResponse.make(ClaimRelease.claims(of: user, names: names))
    }
}
