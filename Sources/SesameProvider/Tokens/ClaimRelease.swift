import Foundation
import SesameProtocol
import SesameStore

/// Which of a user's standard claims (OIDC Core §5.1) are released, by name: the UserInfo
/// endpoint releases the claims of the granted scopes (§5.4) plus those the `claims` parameter
/// asked for there (§5.5); the ID token carries only the user claims asked for in
/// `claims.id_token`.
package enum ClaimRelease {
    /// OIDC Core §5.4: the claims each scope value requests.
    package static let claimsByScope: [String: [String]] = [
        "profile": [
            "name", "family_name", "given_name", "middle_name", "nickname", "preferred_username",
            "profile", "picture", "website", "gender", "birthdate", "zoneinfo", "locale", "updated_at",
        ],
        "email": ["email", "email_verified"],
        "phone": ["phone_number", "phone_number_verified"],
        "address": ["address"],
    ]

    /// The scope whose grant a user claim needs (`nil` for names that are not user claims).
    package static let scopeByClaim: [String: String] = {
        var result: [String: String] = [:]
        for (scope, claims) in claimsByScope {
            for claim in claims { result[claim] = scope }
        }
        return result
    }()

    /// The user claims `scopes` release.
    package static func names(forScopes scopes: Set<String>) -> Set<String> {
        Set(scopes.flatMap { claimsByScope[$0] ?? [] })
    }

    /// The user's claims named in `names` that have a value; `sub` is always the user id.
    package static func claims(of user: UserRecord, names: Set<String>) -> StandardClaims {
        let all = user.claims
        var result = StandardClaims(sub: user.id)
        for name in names {
            switch name {
            case "name": result.name = all.name
            case "given_name": result.givenName = all.givenName
            case "family_name": result.familyName = all.familyName
            case "middle_name": result.middleName = all.middleName
            case "nickname": result.nickname = all.nickname
            case "preferred_username": result.preferredUsername = all.preferredUsername
            case "profile": result.profile = all.profile
            case "picture": result.picture = all.picture
            case "website": result.website = all.website
            case "gender": result.gender = all.gender
            case "birthdate": result.birthdate = all.birthdate
            case "zoneinfo": result.zoneinfo = all.zoneinfo
            case "locale": result.locale = all.locale
            case "updated_at": result.updatedAt = all.updatedAt ?? Int(user.updatedAt.timeIntervalSince1970)
            case "email": result.email = user.email
            case "email_verified": result.emailVerified = user.emailVerified
            case "phone_number": result.phoneNumber = all.phoneNumber
            case "phone_number_verified":
                result.phoneNumberVerified = all.phoneNumber == nil ? nil : (all.phoneNumberVerified ?? false)
            case "address": result.address = all.address
            default: break
            }
        }
        return result
    }

    /// The claims `scopes` release (§5.4).
    package static func claims(of user: UserRecord, scopes: Set<String>) -> StandardClaims {
        claims(of: user, names: names(forScopes: scopes))
    }

    /// The user claims `claims` asks the ID token for (§5.5), read from the store only when it
    /// asks for any; `nil` when none are asked for or the user no longer exists.
    package static func idTokenClaims(
        for claims: RequestedClaims?, userID: String, store: any IdentityStore
    ) async throws -> StandardClaims? {
        guard let names = claims?.idTokenClaims, !names.isEmpty,
            let user = try await store.user(id: userID)
        else { return nil }
        return Self.claims(of: user, names: names)
    }
}
