import Foundation
import Hummingbird
import SesameProtocol

/// The pushed authorization request endpoint, `POST /par` (RFC 9126 §2): authenticates the
/// client as `/token` does (a public client names itself with `client_id`), checks the request
/// as `/authorize` would (``PushedAuthorizationRequests``) and answers 201 with a `request_uri`
/// for `/authorize`. Errors are JSON, status 400 (RFC 9126 §2.3), `invalid_client` 401.
struct PushedAuthorizationEndpoint: Sendable {
    let clientAuthenticator: ClientAuthenticator
    let requests: PushedAuthorizationRequests
    /// A DPoP proof sent with the push binds the code to its key (RFC 9449 §10.1).
    let dpop: DPoPRequests

    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form = try await FormRequest.body(of: request, context: context)
        if request.uri.query?.isEmpty == false {
            throw EndpointFailure(.invalidRequest, "Send the pushed request's parameters in the body only (RFC 9126 section 2.1).")
        }
        let client = try await clientAuthenticator.authenticate(request, form: form, context: context)
        context.annotations.record(clientID: client.clientID)
        var parameters = form.filter { !Self.authenticationParameters.contains($0.key) }
        if let proof = try await dpop.tokenRequestProof(request) {
            // §10.1: with both, the proof's key and dpop_jkt must agree.
            if let named = parameters[DPoP.jktParameter], !ConstantTime.equals(named, proof.thumbprint) {
                throw EndpointFailure(.dpopProofInvalid, "dpop_jkt names another key than the DPoP proof's (RFC 9449 section 10.1).")
            }
            parameters[DPoP.jktParameter] = proof.thumbprint
        }
        let pushed: PushedAuthorizationResponse
        do {
            pushed = try await requests.push(parameters, client: client)
        } catch {
            context.annotations.record(outcome: "refused_\(error.code.error)")
            throw EndpointFailure(error.code, error.description, status: error.code == .serverError ? nil : .badRequest)
        }
        context.annotations.record(outcome: "pushed")
        return JSONResponse.make(pushed, status: .created)
    }

    /// Client authentication, not part of the authorization request (RFC 9126 §2.1).
    static let authenticationParameters: Set<String> = [
        OAuthParameter.clientSecret, ClientAssertionParameter.type, ClientAssertionParameter.assertion,
    ]
}
