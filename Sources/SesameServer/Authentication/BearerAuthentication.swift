import Foundation
import Hummingbird
import SesameProtocol

/// Authenticates a request by its RFC 6750 §2.1 `Authorization: Bearer` access token, for
/// `/userinfo` (any client), the account APIs under `/api/` (first-party clients only,
/// ``authenticateFirstParty(_:context:)``) and step-up at `/authorize-challenge`.
///
/// The token must be one this server issued (RFC 9068 `at+jwt`), unexpired, not revoked, and
/// its user must still exist. A token issued to a client for itself (`client_credentials`,
/// ``AccessTokenClaims/isClientOnly``) names no user, whatever its `sub`, and is refused. Tokens are never accepted from a query string or form body
/// (RFC 9700 §4.3.2).
///
/// A token bound to a DPoP key (`cnf.jkt`, RFC 9449 §6) is accepted only as
/// `Authorization: DPoP <token>` with a proof signed by that key, carrying the token's `ath`
/// (§7.1); presented as `Bearer` it is refused, so a stolen bound token is useless without the
/// key (§7.2). A bearer token presented with the DPoP scheme is refused as well.
///
/// A token bound to a client certificate (`cnf` `x5t#S256`, RFC 8705 §3) is accepted only over
/// a connection that presented that certificate (§3.1; through the server's TLS or a trusted
/// proxy's `Client-Cert`).
struct BearerAuthentication: Sendable {
    let verifier: AccessTokenVerifier
    let store: any IdentityStore
    let dpop: DPoPRequests
    /// Where a request's client certificate comes from (`nil` with mutual TLS off: a
    /// certificate-bound token then never passes).
    var certificates: ClientCertificateSource? = nil

    /// The verified token claims and the user they name; throws `invalid_token` (401 with
    /// `WWW-Authenticate`) otherwise.
    func authenticate(
        _ request: Request, context: SesameRequestContext
    ) async throws -> (claims: AccessTokenClaims, user: UserRecord) {
        let claims = try await authenticateToken(request, context: context)
        return (claims, try await user(of: claims, context: context))
    }

    /// The claims of the presented access token, checked (signature, expiry, revocation) and
    /// presented as it must be (a DPoP-bound token with its proof, RFC 9449 §7.1); its user,
    /// if it names one, is not looked at.
    func authenticateToken(_ request: Request, context: SesameRequestContext) async throws -> AccessTokenClaims {
        guard let (scheme, token) = Self.credentials(request) else {
            // RFC 6750 §3.1: a request without supported credentials gets a challenge without
            // an error code (a token in the body or query is not supported, RFC 9700 §4.3.2).
            throw EndpointFailure(
                .invalidToken, "Send the access token in an Authorization: Bearer header.",
                status: .unauthorized, headers: [.wwwAuthenticate: #"Bearer realm="sesame""#])
        }
        let claims = try await activeClaims(token, context: context)
        switch (scheme, claims.boundThumbprint) {
        case (.dpop, let thumbprint?):
            try await dpop.resourceProof(request, accessToken: token, boundTo: thumbprint)
        case (.bearer, _?):
            throw dpop.challenge(
                .invalidToken, "This access token is bound to a DPoP key: send it as Authorization: DPoP with a DPoP proof (RFC 9449 section 7.1).")
        case (.dpop, nil):
            throw Self.invalidToken("This access token is not bound to a DPoP key: send it as Authorization: Bearer.")
        case (.bearer, nil):
            break
        }
        if let bound = claims.boundCertificate {
            let presented = try await certificates?.certificate(request, context: context)
            guard let presented, ConstantTime.equals(presented.thumbprint, bound) else {
                throw Self.invalidToken(
                    "This access token is bound to a TLS client certificate: send it over a connection that presents that certificate (RFC 8705 section 3).")
            }
        }
        return claims
    }

    /// The claims and user of an access token the server keeps for a browser (the admin
    /// console's session cookie), checked as a presented one is; a DPoP-bound token is refused.
    func authenticate(
        sessionToken token: String, context: SesameRequestContext
    ) async throws -> (claims: AccessTokenClaims, user: UserRecord) {
        let claims = try await activeClaims(token, context: context)
        guard claims.cnf == nil else { throw Self.invalidToken("A session token is never bound to a key.") }
        return (claims, try await user(of: claims, context: context))
    }

    private func activeClaims(_ token: String, context: SesameRequestContext) async throws -> AccessTokenClaims {
        guard let claims = try await verifier.activeClaims(token) else {
            throw Self.invalidToken("The access token is invalid, expired or revoked.")
        }
        context.annotations.record(clientID: claims.clientID)
        return claims
    }

    /// The token's user: it names one, who exists and is not disabled.
    func user(of claims: AccessTokenClaims, context: SesameRequestContext) async throws -> UserRecord {
        guard !claims.isClientOnly else {
            context.annotations.record(outcome: "client_only_token")
            throw Self.invalidToken(
                "This access token was issued to a client for itself (client_credentials) and names no user; "
                    + "these endpoints need a token a user signed in for.")
        }
        guard let user = try await store.user(id: claims.sub) else {
            throw Self.invalidToken("The token's user no longer exists.")
        }
        guard !user.isDisabled else {
            context.annotations.record(outcome: "account_disabled")
            throw Self.invalidToken("An administrator disabled the token's user; sign in again once the account is enabled.")
        }
        return user
    }

    /// As ``authenticate(_:context:)``, and the token's client must be registered as
    /// first-party (``ClientRecord/firstParty``): the account and MFA enrolment APIs change
    /// passwords, email addresses and second factors, which a third-party relying party must
    /// never do with the token it got from "Sign in with …" (draft-ietf-oauth-first-party-apps,
    /// Security Considerations, "First-Party Applications"). Otherwise 403
    /// `insufficient_scope` (RFC 6750 §3.1) with error_code 1021.
    func authenticateFirstParty(
        _ request: Request, context: SesameRequestContext
    ) async throws -> (claims: AccessTokenClaims, user: UserRecord) {
        let (claims, user) = try await authenticate(request, context: context)
        guard let client = try await store.client(id: claims.clientID) else {
            throw Self.invalidToken("The token's client is no longer registered.")
        }
        guard client.firstParty else {
            context.annotations.record(outcome: "first_party_client_required")
            throw EndpointFailure(
                .firstPartyClientRequired,
                "The access token was issued to '\(client.clientID)', which is not a first-party client; "
                    + "only first-party clients may use the account APIs. Register it as first-party "
                    + "(seed `first_party: true` or `sesame client add --first-party`), or manage the "
                    + "account in a first-party app.",
                headers: [.wwwAuthenticate: #"Bearer realm="sesame", error="insufficient_scope""#])
        }
        return (claims, user)
    }

    /// The schemes an access token is presented with.
    enum Scheme {
        /// RFC 6750 §2.1.
        case bearer
        /// RFC 9449 §7.1.
        case dpop
    }

    /// RFC 6750 §2.1 `Authorization: Bearer <token>` or RFC 9449 §7.1 `Authorization: DPoP <token>`
    /// (scheme names are case-insensitive, RFC 9110 §11.1).
    static func credentials(_ request: Request) -> (Scheme, String)? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let scheme: Scheme
        switch parts[0].lowercased() {
        case "bearer": scheme = .bearer
        case "dpop": scheme = .dpop
        default: return nil
        }
        // Optional whitespace around the token (RFC 9110 §5.6.3), trimmed over UTF-8: the token
        // is long, and Foundation's trimming goes through a UTF-16 copy.
        let bytes = parts[1].utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") {
            start = bytes.index(after: start)
        }
        while start < end {
            let last = bytes[bytes.index(before: end)]
            guard last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") else { break }
            end = bytes.index(before: end)
        }
        guard start < end, let token = String(bytes[start..<end]) else { return nil }
        return (scheme, token)
    }

    /// RFC 6750 §2.1 `Authorization: Bearer <token>`.
    static func bearerToken(_ request: Request) -> String? {
        guard let (scheme, token) = credentials(request), scheme == .bearer else { return nil }
        return token
    }

    /// RFC 6750 §3: 401 with `WWW-Authenticate: Bearer error="invalid_token"`.
    static func invalidToken(_ description: String) -> EndpointFailure {
        EndpointFailure(
            .invalidToken, description, status: .unauthorized,
            headers: [.wwwAuthenticate: #"Bearer realm="sesame", error="invalid_token""#])
    }
}
