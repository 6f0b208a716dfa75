import Foundation
import SesameProtocol
import SesameStore

/// A `claims` authorization request parameter (OIDC Core §5.5) as granted to a client: the
/// claims it asked for that Sesame knows and the client may receive. It travels with the
/// authorization code and the refresh token, so ID tokens and access tokens issued later from
/// the same grant keep it.
///
/// - User claims are released only when the client is allowed the scope that covers them
///   (§5.4: `profile`, `email`, `phone`, `address`); a client registered without `email` does
///   not get `email` by naming it. Unknown names are dropped (§5.5: "not understood" members
///   are ignored).
/// - `id_token` may also ask for `sub` with a `value` (§5.5.1: only that End-User may be
///   answered for), `acr` (§5.5.1.1; see ``acrValues``) and `auth_time` (always present).
/// - Whether a claim is essential changes nothing for user claims: a claim the user has no
///   value for is left out, which §5.5.1 allows ("not an error condition").
package struct RequestedClaims: Sendable, Equatable {
    /// The granted request, as stored.
    package let request: ClaimsRequest

    /// Claims of the `id_token` member Sesame understands besides user claims.
    package static let protocolClaims: Set<String> = ["sub", "acr", "auth_time"]

    /// Parses and grants `text` for a client allowed `allowedScopes`. Fails when the parameter is
    /// malformed (§5.5) or asks as essential for an `acr` no class of Sesame can meet
    /// (§5.5.1.1: "MUST treat that outcome as a failed authentication attempt").
    package init(parsing text: String, allowedScopes: Set<String>) throws(RequestedClaimsRefusal) {
        let parsed: ClaimsRequest
        do throws(ClaimsRequestError) {
            parsed = try ClaimsRequest.parse(text)
        } catch {
            throw RequestedClaimsRefusal(code: .invalidRequest, description: error.description)
        }
        if let acr = parsed.idToken["acr"], acr.essential, !acr.acceptedStrings.isEmpty,
            !acr.acceptedStrings.contains(where: AuthenticationContextClass.all.contains)
        {
            throw RequestedClaimsRefusal(
                code: .accessDenied,
                description: "No essential acr value requested in claims can be met; this server offers "
                    + AuthenticationContextClass.all.joined(separator: " and ") + ".")
        }
        if let sub = parsed.idToken["sub"],
            sub.acceptedValues.count > 1 || sub.acceptedStrings.count < sub.acceptedValues.count
        {
            throw RequestedClaimsRefusal(
                code: .invalidRequest, description: "claims.id_token.sub may name one string value only.")
        }
        func granted(_ members: [String: IndividualClaimRequest], protocolClaims: Set<String>)
            -> [String: IndividualClaimRequest]
        {
            members.filter { name, _ in
                if protocolClaims.contains(name) { return true }
                guard let scope = ClaimRelease.scopeByClaim[name] else { return false }
                return allowedScopes.contains(scope)
            }
        }
        request = ClaimsRequest(
            userinfo: granted(parsed.userinfo, protocolClaims: []),
            idToken: granted(parsed.idToken, protocolClaims: Self.protocolClaims))
    }

    package init(stored request: ClaimsRequest) { self.request = request }

    /// User claims for the UserInfo endpoint (besides those of the scopes).
    package var userinfoClaims: Set<String> { Set(request.userinfo.keys) }

    /// User claims for the ID token.
    package var idTokenClaims: Set<String> { Set(request.idToken.keys).subtracting(Self.protocolClaims) }

    /// The End-User the relying party asks about (§5.5.1: `"sub": {"value": …}`), if any.
    package var subject: String? { request.idToken["sub"]?.acceptedStrings.first }

    /// §5.5.1.1: the `acr` values asked for in `claims.id_token.acr`, space-separated like
    /// `acr_values`, or `nil` when none were.
    package var acrValues: String? {
        let values = request.idToken["acr"]?.acceptedStrings ?? []
        return values.isEmpty ? nil : values.joined(separator: " ")
    }

    /// §5.5.1.1: with an essential `acr` request, the ID token's `acr` is one of the requested
    /// values: the class that happened when it was requested, else the strongest requested class
    /// it includes (a multi-factor sign-in includes the password). Otherwise `actual`.
    package func reportedACR(_ actual: String?) -> String? {
        guard let acr = request.idToken["acr"], acr.essential, let actual,
            let rank = AuthenticationContextClass.all.firstIndex(of: actual)
        else { return actual }
        let requested = acr.acceptedStrings
        return AuthenticationContextClass.all[...rank].last(where: requested.contains) ?? actual
    }

    /// Whether `userID` may be answered for (§5.5.1: never another End-User than a requested `sub`).
    package func admits(userID: String) -> Bool {
        subject.map { $0 == userID } ?? true
    }
}

/// Why a `claims` parameter was refused: the OAuth error to redirect with and what went wrong.
package struct RequestedClaimsRefusal: Error, Sendable {
    package let code: APIErrorCode
    package let description: String
}
