import Foundation
import Logging
import SesameProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Talks to the authorization challenge endpoint of OAuth 2.0 for First-Party Applications
/// (draft-ietf-oauth-first-party-apps §5, `POST /authorize-challenge`, form-encoded). Never the
/// password grant (RFC 9700 §2.4).
///
/// Every answer is one of two outcomes: an authorization code (§5.2.1, HTTP 200) or a
/// continuation (§5.2.2, HTTP 400 `insufficient_authorization` with `auth_session`); anything
/// else becomes the ``SesameError`` of ``ProviderHTTP``'s one mapping (a wrong password is
/// ``SesameError/Code-swift.struct/authenticationFailed`` with `invalid_grant`).
struct AuthorizationChallengeClient: Sendable {
    let endpoint: URL
    let metadata: ProviderMetadata
    /// Builds and sends the requests: the client authentication of `/token`, and DPoP proofs.
    let tokenEndpoint: TokenEndpointClient
    let logger: Logger

    enum Outcome: Sendable {
        /// §5.2.1: redeem at the token endpoint with the PKCE verifier.
        case authorizationCode(String)
        /// §5.2.2: more authentication needed; the error carries `auth_session`, `mfa_methods`
        /// and, after a method was chosen, where the code went.
        case insufficientAuthorization(APIError)
    }

    /// The endpoint from discovery (`authorization_challenge_endpoint`, draft §4.1); a clear
    /// error when the provider does not offer native sign-in.
    init(metadata: ProviderMetadata, tokenEndpoint: TokenEndpointClient, logger: Logger)
        throws(SesameError)
    {
        guard let endpoint = metadata.authorizationChallengeEndpoint else {
            throw .invalidConfiguration(
                "the provider \(metadata.issuer) advertises no authorization_challenge_endpoint, so it does not support native first-party sign-in (draft-ietf-oauth-first-party-apps). Use signIn(with:) to sign in through the browser.")
        }
        self.endpoint = endpoint
        self.metadata = metadata
        self.tokenEndpoint = tokenEndpoint
        self.logger = logger
    }

    /// Sends one challenge request. `bearerToken` is the current access token for step-up; when
    /// it is bound to `dpopKey` it goes as `Authorization: DPoP` with a proof. Parameters may hold
    /// a password or code: they are never logged.
    func send(_ parameters: [(String, String)], bearerToken: String? = nil, dpopKey: (any DPoPKey)? = nil)
        async throws(SesameError) -> Outcome
    {
        let (data, response) = try await tokenEndpoint.sendWithProof(dpopKey, accessToken: bearerToken) {
            () async throws(SesameError) -> URLRequest in
            try await tokenEndpoint.makeRequest(endpoint, parameters, metadata: metadata, bearerToken: bearerToken)
        }
        logger.debug(
            "authorization challenge request",
            metadata: ["parameters": "\(parameters.map(\.0).joined(separator: ","))"])
        return try Self.outcome(data: data, status: response.statusCode)
    }

    /// Interprets an answer of the endpoint (draft §5.2).
    static func outcome(data: Data, status: Int) throws(SesameError) -> Outcome {
        if status == 200 {
            guard let success = try? JSONDecoder().decode(AuthorizationChallengeResponse.self, from: data),
                !success.authorizationCode.isEmpty
            else {
                throw .technical(.malformedResponse("the authorization challenge response has no authorization_code"))
            }
            return .authorizationCode(success.authorizationCode)
        }
        if (400..<500).contains(status),
            let apiError = try? JSONDecoder().decode(APIError.self, from: data),
            apiError.error == "insufficient_authorization"
        {
            // 2006: the chosen method is not available; a plain request error, not a continuation.
            guard apiError.code != .mfaMethodUnavailable, let session = apiError.authSession, !session.isEmpty
            else { throw .requestFailed(apiError, status: status) }
            return .insufficientAuthorization(apiError)
        }
        throw ProviderHTTP.error(data: data, status: status, what: "authorization challenge")
    }
}
