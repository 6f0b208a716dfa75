import Foundation
import SesameProtocol
import SesameStore

/// Facebook Login tokens are access tokens, not JWTs (docs/federation.md): they are checked at
/// the provider's token inspection endpoint (`debug_token`, called with the app's id and secret
/// as the app access token) and the profile read at its profile endpoint (`/me`). Each rule
/// that fails is a ``FederationRefusal``:
/// - the inspection says `is_valid` (else `invalidToken`, rule `inspection`);
/// - `app_id` is one of the provider's audiences (else `wrongAudience`): a token for another app
///   is never accepted;
/// - `expires_at` has not passed (0 means no expiry) (else `expired`);
/// - the profile's `id` is the inspected `user_id` (else `invalidToken`, rule `profile`);
/// - the required claim is present (else `missingClaim`).
/// Facebook returns only confirmed email addresses, so a returned email counts as verified.
package struct FacebookTokenInspector: Sendable {
    package let transport: any UpstreamTransport
    package let now: @Sendable () -> Date

    package init(transport: any UpstreamTransport, now: @escaping @Sendable () -> Date) {
        self.transport = transport
        self.now = now
    }

    package func inspect(_ token: String, provider: FederationProviderRecord, appSecret: String) async throws(FederationRefusal)
        -> FederatedClaims
    {
        guard token.utf8.count <= 4_096, !token.contains("&"), let appID = provider.brokerClientID,
            let inspection = provider.inspectionEndpoint, let profileEndpoint = provider.profileEndpoint
        else { throw .invalidToken(rule: "token", "subject_token is not a Facebook access token") }
        let inspected = try await get(
            inspection, [("input_token", token), ("access_token", "\(appID)|\(appSecret)")], what: "token inspection")
        guard let data = inspected["data"] as? [String: Any], data["is_valid"] as? Bool == true else {
            throw .invalidToken(rule: "inspection", "the provider says the token is not valid")
        }
        guard let app = Self.string(data["app_id"]), provider.audiences.contains(app) else {
            throw .wrongAudience("the token was issued to another Facebook app")
        }
        // `expires_at` is a NumericDate (RFC 7519 §2), 0 for a token that does not expire. Any
        // other value out of range (1e30, -1, "NaN") is refused by name, not read as "never".
        if let value = data["expires_at"], !(value is NSNull) {
            guard let number = value as? NSNumber else {
                throw .invalidToken(rule: "expires_at", "expires_at is not a NumericDate (RFC 7519 section 2); the provider's answer is invalid")
            }
            let expires: NumericDate
            do {
                expires = try NumericDate(validating: number.doubleValue, claim: "expires_at")
            } catch {
                throw .invalidToken(rule: "expires_at", "\(error.description); the provider's answer is invalid")
            }
            if expires.secondsSince1970 != 0, expires.secondsSince1970 <= now().timeIntervalSince1970 {
                throw .expired("the token expired (expires_at)")
            }
        }
        guard let userID = Self.string(data["user_id"]) else {
            throw .invalidToken(rule: "inspection", "the inspection names no user")
        }
        let profile = try await get(
            profileEndpoint, [("fields", "id,name,email,picture"), ("access_token", token)], what: "profile")
        guard Self.string(profile["id"]) == userID else {
            throw .invalidToken(rule: "profile", "the profile is not the inspected token's user")
        }
        let picture = ((profile["picture"] as? [String: Any])?["data"] as? [String: Any])?["url"] as? String
        let claims = FederatedClaims(
            iss: provider.issuer, sub: userID, audience: app, email: profile["email"] as? String,
            emailVerified: profile["email"] != nil, name: profile["name"] as? String, picture: picture)
        guard claims.present.contains(provider.requiredClaim) else {
            throw .missingClaim("the profile has no \(provider.requiredClaim), which this provider requires")
        }
        return claims
    }

    private static func string(_ value: Any?) -> String? {
        if let text = value as? String { return text }
        if let number = value as? Int { return String(number) }
        return nil
    }

    private func get(_ endpoint: String, _ query: [(String, String)], what: String) async throws(FederationRefusal)
        -> [String: Any]
    {
        let separator = endpoint.contains("?") ? "&" : "?"
        let request = UpstreamRequest(url: endpoint + separator + FormURLEncoding.encode(query))
        let (status, object) = try await UpstreamHTTP.json(request, transport: transport, what: "\(what) endpoint")
        guard status == 200 else {
            throw .invalidToken(rule: "inspection", "the provider's \(what) endpoint refused the token (HTTP \(status))")
        }
        return object
    }
}
