import Foundation
import SesameProtocol
import SesameStore

/// A validated authorization request (RFC 6749 §4.1.1, OIDC Core §3.1.2.1, RFC 7636 §4.3).
/// Only the code flow exists here; PKCE is S256 when present, and always present for public
/// clients (see ``AuthorizationRequestValidator``).
package struct AuthorizationRequest: Sendable, Equatable {
    package var clientID: String
    /// The redirect URI exactly as the client sent it (loopback port included).
    package var redirectURI: String
    package var scopes: [String]
    package var state: String?
    package var nonce: String?
    /// RFC 7636 S256 `code_challenge`; `nil` when a confidential client sent none (RFC 9700
    /// §2.1.1 lets confidential OpenID Connect clients rely on `nonce` instead).
    package var codeChallenge: String?
    package var prompt: PromptPolicy
    package var loginHint: String?
    package var acrValues: String?
    package var uiLocales: String?
    /// The granted `claims` parameter (OIDC Core §5.5), `nil` when none was sent.
    package var claims: RequestedClaims?
    /// RFC 9449 §10 `dpop_jkt`: the thumbprint of the DPoP key the code will be bound to.
    package var dpopJKT: String?
    /// The APIs the tokens will be for (RFC 8707 §2): those named in `resource`, else the
    /// client's default; empty: the issuer alone.
    package var resources: [String] = []

    package init(
        clientID: String,
        redirectURI: String,
        scopes: [String],
        state: String? = nil,
        nonce: String? = nil,
        codeChallenge: String? = nil,
        prompt: PromptPolicy,
        loginHint: String? = nil,
        acrValues: String? = nil,
        uiLocales: String? = nil,
        claims: RequestedClaims? = nil,
        dpopJKT: String? = nil
    ) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.state = state
        self.nonce = nonce
        self.codeChallenge = codeChallenge
        self.prompt = prompt
        self.loginHint = loginHint
        self.acrValues = acrValues
        self.uiLocales = uiLocales
        self.claims = claims
        self.dpopJKT = dpopJKT
    }

    package var scope: String { ScopeList.format(scopes) }

    /// The parameters an authorization request has: what ``PendingAuthorizations`` keeps of a
    /// request that came in `/authorize`'s query.
    package static let parameterNames: Set<String> = [
        "client_id", "redirect_uri", "response_type", "scope", "code_challenge",
        "code_challenge_method", "state", "nonce", "prompt", "max_age", "login_hint",
        "acr_values", "ui_locales", "claims", "dpop_jkt", "response_mode", "id_token_hint", "resource",
    ]

    /// The authentication context classes asked for: `claims.id_token.acr` when it names values
    /// (OIDC Core §5.5.1.1), else `acr_values` (§3.1.2.1).
    package var requestedACRValues: String? { claims?.acrValues ?? acrValues }
}

/// Why an authorization request was refused (RFC 6749 §4.1.2.1).
package enum AuthorizationRequestError: Error, Sendable {
    /// The client or redirect URI could not be trusted: show an error page, never redirect
    /// (RFC 9700 §4.11.2, RFC 6749 §4.1.2.1).
    case page(code: APIErrorCode, description: String)
    /// Client and redirect URI are valid: send the error back to the client.
    case redirect(code: APIErrorCode, description: String, redirectURI: String, state: String?)
}
