import SesameProtocol

/// The parameters of a token exchange at `/token` (RFC 8693 §2.1), plus the two federation
/// adds (`subject_issuer`, `nonce`; docs/federation.md). Values are as sent; each exchange
/// checks the ones it needs and names the rule that failed.
package struct TokenExchangeRequest: Sendable, Equatable {
    package var subjectToken: String?
    package var subjectTokenType: String?
    package var actorToken: String?
    package var actorTokenType: String?
    package var audience: String?
    package var resource: String?
    package var requestedTokenType: String?
    package var scope: String?
    /// Federation: the registered provider, by id or issuer.
    package var subjectIssuer: String?
    /// Federation: the nonce the app gave the provider.
    package var nonce: String?

    package init(
        subjectToken: String? = nil, subjectTokenType: String? = nil, actorToken: String? = nil,
        actorTokenType: String? = nil, audience: String? = nil, resource: String? = nil,
        requestedTokenType: String? = nil, scope: String? = nil, subjectIssuer: String? = nil, nonce: String? = nil
    ) {
        self.subjectToken = subjectToken
        self.subjectTokenType = subjectTokenType
        self.actorToken = actorToken
        self.actorTokenType = actorTokenType
        self.audience = audience
        self.resource = resource
        self.requestedTokenType = requestedTokenType
        self.scope = scope
        self.subjectIssuer = subjectIssuer
        self.nonce = nonce
    }

    /// The registered APIs `resource` names (RFC 8693 §2.1, RFC 8707 §2), the issuer left out
    /// (a token for the issuer is the default); `invalid_target` for a malformed one.
    package func resources(issuer: String) throws(ProviderFailure) -> [String] {
        try ResourceIndicator.parse(resource).filter { $0 != issuer }
    }

    /// The request read from the form parameters of `/token`.
    package init(parameters form: [String: String]) {
        self.init(
            subjectToken: form[TokenExchange.Parameter.subjectToken],
            subjectTokenType: form[TokenExchange.Parameter.subjectTokenType],
            actorToken: form[TokenExchange.Parameter.actorToken],
            actorTokenType: form[TokenExchange.Parameter.actorTokenType],
            audience: form[TokenExchange.Parameter.audience], resource: form[TokenExchange.Parameter.resource],
            requestedTokenType: form[TokenExchange.Parameter.requestedTokenType], scope: form[OAuthParameter.scope],
            subjectIssuer: form[Federation.subjectIssuerParameter], nonce: form[Federation.nonceParameter])
    }
}
