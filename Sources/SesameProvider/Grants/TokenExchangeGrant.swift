import Foundation
import SesameProtocol
import SesameStore

/// RFC 8693 token exchange at `/token`. One grant serves every kind of exchange, chosen by the
/// request (§2.1): an ID token with a device secret as the actor is Native SSO
/// (``NativeSSOExchange``); an ID token naming its `subject_issuer` is federation
/// (``FederationExchange``). Anything else is `invalid_request` (§2.2.2).
package struct TokenExchangeGrant: Sendable {
    package let nativeSSO: NativeSSOExchange
    package let federation: FederationExchange

    package init(nativeSSO: NativeSSOExchange, federation: FederationExchange) {
        self.nativeSSO = nativeSSO
        self.federation = federation
    }

    package func exchange(
        _ request: TokenExchangeRequest, client: ClientRecord, origin: RequestOrigin, confirmation: TokenConfirmation? = nil
    ) async throws -> TokenResponse
    {
        guard let subject = request.subjectToken, !subject.isEmpty else {
            throw ProviderFailure(.invalidRequest, "subject_token is required (RFC 8693 section 2.1).")
        }
        guard subject.utf8.count <= 16_384 else {
            throw ProviderFailure(.invalidRequest, "subject_token is too long.")
        }
        let subjectType = request.subjectTokenType ?? ""
        switch subjectType {
        case TokenExchange.TokenType.idToken:
            if request.actorToken == nil, request.actorTokenType == nil, request.subjectIssuer != nil {
                return try await federation.exchange(
                    request, subjectToken: subject, client: client, origin: origin, confirmation: confirmation)
            }
            return try await nativeSSO.exchange(
                request, subjectToken: subject, client: client, origin: origin, confirmation: confirmation)
        case "":
            throw ProviderFailure(.invalidRequest, "subject_token_type is required (RFC 8693 section 2.1).")
        case TokenExchange.TokenType.accessToken where request.subjectIssuer != nil:
            // Facebook Login's access tokens (federation).
            return try await federation.exchange(
                request, subjectToken: subject, client: client, origin: origin, confirmation: confirmation)
        default:
            throw ProviderFailure(
                .invalidRequest,
                "subject_token_type '\(subjectType.prefix(100))' is not supported; this server exchanges \(TokenExchange.TokenType.idToken): with a device secret (Native SSO) or a subject_issuer (federation).")
        }
    }
}
