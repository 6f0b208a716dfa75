import Foundation
import SesameProtocol

/// A validated authorization request (RFC 6749 §4.1.1, OIDC Core §3.1.2.1, RFC 7636 §4.3).
/// Only the code flow exists here; PKCE is S256 when present, and always present for public
/// clients (see ``AuthorizationRequestValidator``).
struct AuthorizationRequest: Sendable, Equatable {
    var clientID: String
    /// The redirect URI exactly as the client sent it (loopback port included).
    var redirectURI: String
    var scopes: [String]
    var state: String?
    var nonce: String?
    /// RFC 7636 S256 `code_challenge`; `nil` when a confidential client sent none (RFC 9700
    /// §2.1.1 lets confidential OpenID Connect clients rely on `nonce` instead).
    var codeChallenge: String?
    var prompt: PromptPolicy
    var loginHint: String?
    var acrValues: String?
    var uiLocales: String?
    /// The granted `claims` parameter (OIDC Core §5.5), `nil` when none was sent.
    var claims: RequestedClaims?

    var scope: String { ScopeList.format(scopes) }

    /// The parameters to carry through the login form (hidden fields) so that the POST can be
    /// validated again from scratch without server-side state.
    var formParameters: [(name: String, value: String)] {
        var result: [(String, String)] = [
            (OAuthParameter.clientID, clientID), (OAuthParameter.redirectURI, redirectURI), (OAuthParameter.responseType, "code"),
            (OAuthParameter.scope, scope),
        ]
        if let codeChallenge {
            result.append((OAuthParameter.codeChallenge, codeChallenge))
            result.append((OAuthParameter.codeChallengeMethod, PKCE.method))
        }
        if let state { result.append((OAuthParameter.state, state)) }
        if let nonce { result.append((OAuthParameter.nonce, nonce)) }
        if !prompt.values.isEmpty { result.append((OAuthParameter.prompt, prompt.values.sorted().joined(separator: " "))) }
        if let maxAge = prompt.maxAge { result.append((OAuthParameter.maxAge, String(maxAge))) }
        if let loginHint { result.append((OAuthParameter.loginHint, loginHint)) }
        if let acrValues { result.append((OAuthParameter.acrValues, acrValues)) }
        if let uiLocales { result.append((OAuthParameter.uiLocales, uiLocales)) }
        if let claims { result.append((OAuthParameter.claims, claims.request.json)) }
        return result.map { (name: $0.0, value: $0.1) }
    }

    /// The parameter names ``formParameters`` may produce.
    static let parameterNames: Set<String> = [
        "client_id", "redirect_uri", "response_type", "scope", "code_challenge",
        "code_challenge_method", "state", "nonce", "prompt", "max_age", "login_hint",
        "acr_values", "ui_locales", "claims",
    ]

    /// The authentication context classes asked for: `claims.id_token.acr` when it names values
    /// (OIDC Core §5.5.1.1), else `acr_values` (§3.1.2.1).
    var requestedACRValues: String? { claims?.acrValues ?? acrValues }
}

/// Why an authorization request was refused (RFC 6749 §4.1.2.1).
enum AuthorizationRequestError: Error, Sendable {
    /// The client or redirect URI could not be trusted: show an error page, never redirect
    /// (RFC 9700 §4.11.2, RFC 6749 §4.1.2.1).
    case page(code: APIErrorCode, description: String)
    /// Client and redirect URI are valid: send the error back to the client.
    case redirect(code: APIErrorCode, description: String, redirectURI: String, state: String?)
}
