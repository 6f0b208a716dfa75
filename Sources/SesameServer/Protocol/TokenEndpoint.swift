import Foundation
import Hummingbird
import SesameProtocol
import SesameProvider

/// The token endpoint, `POST /token` (RFC 6749 §3.2): authenticates the client and dispatches
/// to the grant. Supported grants: `authorization_code`, `refresh_token`, `client_credentials`,
/// RFC 8693 token exchange (Native SSO), the RFC 8628 device code and the PIN unlock grant.
/// There is no password grant (RFC 9700 §2.4). Responses carry `Cache-Control: no-store`
/// and `Pragma: no-cache` (RFC 6749 §5.1).
struct TokenEndpoint: Sendable {
    let clientAuthenticator: ClientAuthenticator
    /// The grants, built once by the identity core (``Provider/grants``).
    let grants: TokenGrants
    let metrics: ServerMetrics
    /// DPoP proofs (RFC 9449 §5): tokens are bound to the key of a valid proof.
    let dpop: DPoPRequests
    /// Dynamic client registration, when open: a registered client's first tokens keep it from
    /// expiring unused.
    var registrations: ClientRegistrations?

    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form = try await FormRequest.body(of: request, context: context)
        if form["access_token"] != nil || request.uri.query?.isEmpty == false {
            throw EndpointFailure(.invalidRequest, "Send token request parameters in the body only.")
        }
        let (client, presented) = try await clientAuthenticator.authenticateWithCertificate(
            request, form: form, context: context)
        context.annotations.record(clientID: client.clientID)
        let tokenRequest = try TokenRequest(parameters: form)
        let proof = try await dpop.tokenRequestProof(request)
        // RFC 8705 §3: the certificate a bound token names; read only for clients that bind,
        // once (an mTLS client's authentication has read it already).
        var certificate = presented
        if client.certificateBoundAccessTokens, certificate == nil {
            certificate = try await clientAuthenticator.certificates?.certificate(request, context: context)
        }
        let response = try await grants.issue(
            tokenRequest, client: client, origin: RequestOrigin(context), dpop: proof, certificate: certificate)
        if let registrations, tokenRequest.grantType != .refreshToken { await registrations.markUsed(client) }
        context.annotations.record(outcome: "issued_\(tokenRequest.metricName)")
        metrics.tokenIssued(grantType: tokenRequest.metricName)
        var answer = JSONResponse.make(buffer: ByteBuffer(bytes: response.directJSON()))
        // RFC 9449 §8.2: a fresh nonce for the client's next proof.
        if proof != nil, let nonce = dpop.check.freshNonce() { answer.headers[.dpopNonce] = nonce }
        return answer
    }
}
