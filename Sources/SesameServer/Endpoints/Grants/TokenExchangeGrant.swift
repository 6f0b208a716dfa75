import Foundation
import SesameProtocol

/// RFC 8693 token exchange at `/token`. One grant serves every kind of exchange, chosen by the
/// request (§2.1): an ID token with a device secret as the actor is Native SSO
/// (``NativeSSOExchange``); an ID token naming its `subject_issuer` is federation
/// (``FederationExchange``). Anything else is `invalid_request` (§2.2.2).
struct TokenExchangeGrant: Sendable {
    let nativeSSO: NativeSSOExchange?
    let federation: FederationExchange?

    func exchange(_ form: [String: String], client: ClientRecord, context: SesameRequestContext) async throws
        -> TokenResponse
    {
        guard let subject = form[TokenExchange.Parameter.subjectToken], !subject.isEmpty else {
            throw EndpointFailure(.invalidRequest, "subject_token is required (RFC 8693 section 2.1).")
        }
        guard subject.utf8.count <= 16_384 else {
            throw EndpointFailure(.invalidRequest, "subject_token is too long.")
        }
        let subjectType = form[TokenExchange.Parameter.subjectTokenType] ?? ""
        switch subjectType {
        case TokenExchange.TokenType.idToken:
            if form[TokenExchange.Parameter.actorToken] == nil, form[TokenExchange.Parameter.actorTokenType] == nil,
                form[Federation.subjectIssuerParameter] != nil
            {
                guard let federation else {
                    throw EndpointFailure(.unsupportedGrantType, "Federation needs a store with federation providers.")
                }
                return try await federation.exchange(form, subjectToken: subject, client: client, context: context)
            }
            guard let nativeSSO else {
                throw EndpointFailure(.unsupportedGrantType, "Single sign-on needs a store with device sessions.")
            }
            return try await nativeSSO.exchange(form, subjectToken: subject, client: client, context: context)
        case "":
            throw EndpointFailure(.invalidRequest, "subject_token_type is required (RFC 8693 section 2.1).")
        case TokenExchange.TokenType.accessToken where form[Federation.subjectIssuerParameter] != nil:
            // Facebook Login's access tokens (federation).
            guard let federation else {
                throw EndpointFailure(.unsupportedGrantType, "Federation needs a store with federation providers.")
            }
            return try await federation.exchange(form, subjectToken: subject, client: client, context: context)
        default:
            throw EndpointFailure(
                .invalidRequest,
                "subject_token_type '\(subjectType.prefix(100))' is not supported; this server exchanges \(TokenExchange.TokenType.idToken): with a device secret (Native SSO) or a subject_issuer (federation).")
        }
    }
}
