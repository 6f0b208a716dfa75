import Foundation
import SesameProtocol

/// One ID token claim rule (Auth0.swift `ClaimValidators` style): small, testable alone, and
/// naming the ``IDTokenRule`` it enforces when it fails.
public protocol IDTokenClaimValidator: Sendable {
    /// Throws ``SesameError/Code-swift.struct/invalidIDToken`` when `claims` break the rule. `alg` is
    /// the verified header algorithm.
    func validate(_ claims: IDTokenClaims, alg: String, expected: IDTokenExpectations)
        throws(SesameError)
}

/// OIDC Core §2: `sub` is REQUIRED and non-empty.
struct SubjectValidator: IDTokenClaimValidator {
    /// A validator for this rule; stateless, so one instance can be shared.
    init() {}
    /// Throws `invalidIDToken` (``IDTokenRule/subject``) when `sub` is empty.
    func validate(_ claims: IDTokenClaims, alg: String, expected: IDTokenExpectations)
        throws(SesameError)
    {
        guard !claims.sub.isEmpty else {
            throw .invalidIDToken(.subject, detail: "the ID token has no sub claim")
        }
    }
}

/// §3.1.3.7 step 2: `iss` exactly equals the discovered issuer.
struct IssuerValidator: IDTokenClaimValidator {
    /// A validator for this rule; stateless, so one instance can be shared.
    init() {}
    /// Throws `invalidIDToken` (``IDTokenRule/issuer``) unless `iss` equals `expected.issuer` character
    /// for character.
    func validate(_ claims: IDTokenClaims, alg: String, expected: IDTokenExpectations)
        throws(SesameError)
    {
        guard claims.iss == expected.issuer else {
            throw .invalidIDToken(
                .issuer, detail: "iss \"\(claims.iss)\" is not the expected issuer \"\(expected.issuer)\"")
        }
    }
}

/// Step 3: `aud` contains the client id and no untrusted extra audience.
struct AudienceValidator: IDTokenClaimValidator {
    /// A validator for this rule; stateless, so one instance can be shared.
    init() {}
    /// Throws `invalidIDToken` (``IDTokenRule/audience``) when `aud` lacks `expected.clientID` or holds
    /// an audience not in `expected.trustedAudiences`.
    func validate(_ claims: IDTokenClaims, alg: String, expected: IDTokenExpectations)
        throws(SesameError)
    {
        guard claims.aud.contains(expected.clientID) else {
            throw .invalidIDToken(
                .audience, detail: "aud \(claims.aud) does not contain the client id \"\(expected.clientID)\"")
        }
        for audience in claims.aud where audience != expected.clientID {
            guard expected.trustedAudiences.contains(audience) else {
                throw .invalidIDToken(.audience, detail: "aud contains the untrusted audience \"\(audience)\"")
            }
        }
    }
}

/// Steps 4–5: with several audiences `azp` is required; when present it equals the client id.
struct AuthorizedPartyValidator: IDTokenClaimValidator {
    /// A validator for this rule; stateless, so one instance can be shared.
    init() {}
    /// Throws `invalidIDToken` (``IDTokenRule/authorizedParty``) when `azp` is not the client id, or is
    /// missing while `aud` has several values.
    func validate(_ claims: IDTokenClaims, alg: String, expected: IDTokenExpectations)
        throws(SesameError)
    {
        if let azp = claims.azp {
            guard azp == expected.clientID else {
                throw .invalidIDToken(.authorizedParty, detail: "azp \"\(azp)\" is not the client id")
            }
        } else if claims.aud.count > 1 {
            throw .invalidIDToken(.authorizedParty, detail: "azp is required when aud has several values")
        }
    }
}

/// Step 9: `exp` is present and in the future, allowing `leeway`.
struct ExpirationValidator: IDTokenClaimValidator {
    /// A validator for this rule; stateless, so one instance can be shared.
    init() {}
    /// Throws `invalidIDToken` (``IDTokenRule/expired``) when `exp` is missing or `exp + leeway` is not
    /// after `expected.now`.
    func validate(_ claims: IDTokenClaims, alg: String, expected: IDTokenExpectations)
        throws(SesameError)
    {
        guard let exp = claims.exp else {
            throw .invalidIDToken(.expired, detail: "the ID token has no exp claim")
        }
        guard exp.addingTimeInterval(expected.leeway) > expected.now else {
            throw .invalidIDToken(.expired, detail: "the ID token expired at \(exp)")
        }
    }
}

/// Step 10: `iat` is present, not in the future and not older than `maxIssuedAtAge`.
struct IssuedAtValidator: IDTokenClaimValidator {
    /// A validator for this rule; stateless, so one instance can be shared.
    init() {}
    /// Throws `invalidIDToken` (``IDTokenRule/issuedAt``) when `iat` is missing, later than
    /// `now + leeway`, or earlier than `now - (maxIssuedAtAge + leeway)`.
    func validate(_ claims: IDTokenClaims, alg: String, expected: IDTokenExpectations)
        throws(SesameError)
    {
        guard let iat = claims.iat else {
            throw .invalidIDToken(.issuedAt, detail: "the ID token has no iat claim")
        }
        guard iat <= expected.now.addingTimeInterval(expected.leeway) else {
            throw .invalidIDToken(.issuedAt, detail: "iat \(iat) is in the future; check the device clock")
        }
        guard iat >= expected.now.addingTimeInterval(-(expected.maxIssuedAtAge + expected.leeway)) else {
            throw .invalidIDToken(.issuedAt, detail: "iat \(iat) is too far in the past")
        }
    }
}

/// Step 11: `nonce` equals the one sent (constant time), when one was sent.
struct NonceValidator: IDTokenClaimValidator {
    /// A validator for this rule; stateless, so one instance can be shared.
    init() {}
    /// Throws `invalidIDToken` (``IDTokenRule/nonce``) when a nonce was sent and `nonce` is missing or
    /// differs; passes when `expected.nonce` is `nil` (refresh, token exchange).
    func validate(_ claims: IDTokenClaims, alg: String, expected: IDTokenExpectations)
        throws(SesameError)
    {
        guard let sent = expected.nonce else { return }
        guard let received = claims.nonce, ConstantTime.equals(received, sent) else {
            throw .invalidIDToken(.nonce, detail: "nonce does not match the sign-in request")
        }
    }
}

/// Step 12: when `acr_values` were requested, `acr` is one of them.
struct ACRValidator: IDTokenClaimValidator {
    /// A validator for this rule; stateless, so one instance can be shared.
    init() {}
    /// Throws `invalidIDToken` (``IDTokenRule/acr``) when `expected.acrValues` is not empty and `acr`
    /// is missing or not one of them.
    func validate(_ claims: IDTokenClaims, alg: String, expected: IDTokenExpectations)
        throws(SesameError)
    {
        guard let requested = expected.acrValues, !requested.isEmpty else { return }
        guard let acr = claims.acr, requested.contains(acr) else {
            throw .invalidIDToken(
                .acr, detail: "acr \(claims.acr ?? "(none)") is not one of the requested \(requested)")
        }
    }
}

/// Step 12 for the `claims` request (OIDC Core §5.5.1.1): when `acr` was requested in
/// `id_token` as an essential claim with `value` or `values`, the returned `acr` is one of them.
/// A voluntary `acr` request is a preference only and is not checked.
struct EssentialACRValidator: IDTokenClaimValidator {
    /// A validator for this rule; stateless, so one instance can be shared.
    init() {}
    /// Throws `invalidIDToken` (``IDTokenRule/acr``) when an essential `acr` with values was requested
    /// and `acr` is missing or not one of them.
    func validate(_ claims: IDTokenClaims, alg: String, expected: IDTokenExpectations)
        throws(SesameError)
    {
        guard let request = expected.claims?.idToken["acr"], request.essential,
            !request.acceptedValues.isEmpty
        else { return }
        let accepted = request.acceptedStrings
        guard let acr = claims.acr, accepted.contains(acr) else {
            throw .invalidIDToken(
                .acr,
                detail: "acr \(claims.acr ?? "(none)") is not one of the essential values \(accepted) "
                    + "requested in the claims parameter (OIDC Core §5.5.1.1); the provider did not "
                    + "authenticate the user at the required level: sign in again, or request an acr "
                    + "the provider lists in acr_values_supported")
        }
    }
}

/// Step 13: with `max_age`, `auth_time` is present and not older than `max_age` (+ leeway).
struct AuthTimeValidator: IDTokenClaimValidator {
    /// A validator for this rule; stateless, so one instance can be shared.
    init() {}
    /// Throws `invalidIDToken` (``IDTokenRule/authTime``) when `max_age` was sent and `auth_time` is
    /// missing or older than `max_age + leeway` seconds.
    func validate(_ claims: IDTokenClaims, alg: String, expected: IDTokenExpectations)
        throws(SesameError)
    {
        guard let maxAge = expected.maxAge else { return }
        guard let authTime = claims.authTime else {
            throw .invalidIDToken(.authTime, detail: "auth_time is required because max_age was sent")
        }
        let limit = authTime.addingTimeInterval(TimeInterval(maxAge) + expected.leeway)
        guard limit >= expected.now else {
            throw .invalidIDToken(.authTime, detail: "the user authenticated longer than max_age (\(maxAge) s) ago")
        }
    }
}

/// OIDC Core §5.5.1: when `sub` was requested in `id_token` with a `value`, the ID token is for
/// that user. The provider must not answer for another user, even one with an active session.
struct RequestedSubjectValidator: IDTokenClaimValidator {
    /// A validator for this rule; stateless, so one instance can be shared.
    init() {}
    /// Throws `invalidIDToken` (``IDTokenRule/requestedSubject``) when a `sub` value was requested and
    /// this `sub` differs.
    func validate(_ claims: IDTokenClaims, alg: String, expected: IDTokenExpectations)
        throws(SesameError)
    {
        guard let value = expected.claims?.idToken["sub"]?.value else { return }
        // `sub` is a string (§2): a number or boolean `value` can never be met.
        guard case .string(let subject) = value, claims.sub == subject else {
            throw .invalidIDToken(
                .requestedSubject,
                detail: "the ID token is for another user than the sub requested in the claims "
                    + "parameter (OIDC Core §5.5.1); discard it and sign in again as the requested user")
        }
    }
}

/// §3.1.3.8 / §3.2.2.9: when `at_hash` is present it matches the access token.
struct AccessTokenHashValidator: IDTokenClaimValidator {
    /// A validator for this rule; stateless, so one instance can be shared.
    init() {}
    /// Throws `invalidIDToken` (``IDTokenRule/accessTokenHash``) when `at_hash` is present and differs
    /// from the hash of `expected.accessToken` under `alg` (or `alg` has no hash); passes without
    /// either.
    func validate(_ claims: IDTokenClaims, alg: String, expected: IDTokenExpectations)
        throws(SesameError)
    {
        guard let atHash = claims.atHash, let accessToken = expected.accessToken else { return }
        guard let computed = AccessTokenHash.compute(accessToken: accessToken, alg: alg),
            ConstantTime.equals(computed, atHash)
        else {
            throw .invalidIDToken(.accessTokenHash, detail: "at_hash does not match the access token")
        }
    }
}
