import Foundation
import SesameProtocol

/// What an authentication established (OIDC Core §2 `auth_time`, `acr`, `amr`).
public struct AuthenticationContext: Sendable, Codable, Equatable {
    public var userID: String
    public var authTime: Date
    public var acr: String?
    public var amr: [String]

    public init(userID: String, authTime: Date, acr: String? = nil, amr: [String] = ["pwd"]) {
        self.userID = userID
        self.authTime = authTime
        self.acr = acr
        self.amr = amr
    }
}

/// An issued authorization code (RFC 6749 §4.1.2), single use, short-lived.
public struct AuthorizationCodeRecord: Sendable, Codable, Equatable {
    public var codeDigest: String
    public var clientID: String
    public var redirectURI: String
    public var scope: String
    public var nonce: String?
    /// RFC 7636 S256 challenge; `nil` when a confidential client sent none (RFC 9700 §2.1.1).
    /// Then a token request carrying `code_verifier` is a PKCE downgrade and is refused
    /// (RFC 9700 §4.8.2).
    public var codeChallenge: String?
    public var authentication: AuthenticationContext
    /// Browser session that produced the code (for `sid` and logout).
    public var sessionID: String?
    public var expiresAt: Date
    /// Set when redeemed; a second redemption by the same client revokes `familyID`
    /// (RFC 6749 §4.1.2, RFC 9700 §4.2.4), even after the code's lifetime.
    public var consumedAt: Date?
    /// Refresh-token family issued on redemption.
    public var familyID: String?
    /// The granted `claims` request parameter (OIDC Core §5.5), if one was sent.
    public var claims: ClaimsRequest?
    /// RFC 9449 §10 `dpop_jkt`: the thumbprint of the DPoP key the code is bound to; the token
    /// request must carry a proof signed with that key. `nil`: not bound.
    public var dpopJKT: String?
    /// The APIs the authorization request named in `resource` (RFC 8707 §2); the token request
    /// may narrow them. Empty: none named.
    public var resources: [String] = []

    public init(
        codeDigest: String, clientID: String, redirectURI: String, scope: String,
        nonce: String?, codeChallenge: String?, authentication: AuthenticationContext,
        sessionID: String?, expiresAt: Date, consumedAt: Date? = nil, familyID: String? = nil,
        claims: ClaimsRequest? = nil, dpopJKT: String? = nil
    ) {
        self.codeDigest = codeDigest
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scope = scope
        self.nonce = nonce
        self.codeChallenge = codeChallenge
        self.authentication = authentication
        self.sessionID = sessionID
        self.expiresAt = expiresAt
        self.consumedAt = consumedAt
        self.familyID = familyID
        self.claims = claims
        self.dpopJKT = dpopJKT
    }
}
