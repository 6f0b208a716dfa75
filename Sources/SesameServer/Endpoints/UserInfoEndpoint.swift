import Foundation
import Hummingbird
import SesameProtocol

/// The UserInfo endpoint, `GET`/`POST /userinfo` (OIDC Core §5.3). The access token is
/// accepted only in the `Authorization: Bearer` header (RFC 6750 §2.1; never in a URL,
/// RFC 9700 §4.3.2). Claims are filtered by scope (OIDC Core §5.4); `sub` is always the user id,
/// equal to the ID token's `sub`.
struct UserInfoEndpoint: Sendable {
    let services: ServerServices

    func handle(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (claims, user) = try await BearerAuthentication(services: services)
            .authenticate(request, context: context)
        guard claims.scopes.contains("openid") else {
            throw EndpointFailure(
                .insufficientScope, "The access token lacks the openid scope.",
                headers: [.wwwAuthenticate: #"Bearer error="insufficient_scope", scope="openid""#])
        }
        context.annotations.record(outcome: "userinfo")
        return JSONResponse.make(Self.filter(user, scopes: claims.scopes))
    }

    /// The user's claims released for `scopes`.
    static func filter(_ user: UserRecord, scopes: Set<String>) -> StandardClaims {
        let all = user.claims
        var result = StandardClaims(sub: user.id)
        if scopes.contains("profile") {
            result.name = all.name
            result.givenName = all.givenName
            result.familyName = all.familyName
            result.middleName = all.middleName
            result.nickname = all.nickname
            result.preferredUsername = all.preferredUsername
            result.profile = all.profile
            result.picture = all.picture
            result.website = all.website
            result.gender = all.gender
            result.birthdate = all.birthdate
            result.zoneinfo = all.zoneinfo
            result.locale = all.locale
            result.updatedAt = all.updatedAt ?? Int(user.updatedAt.timeIntervalSince1970)
        }
        if scopes.contains("email") {
            result.email = user.email
            result.emailVerified = user.emailVerified
        }
        if scopes.contains("phone") {
            result.phoneNumber = all.phoneNumber
            result.phoneNumberVerified = all.phoneNumber == nil ? nil : (all.phoneNumberVerified ?? false)
        }
        if scopes.contains("address") { result.address = all.address }
        return result
    }
}
