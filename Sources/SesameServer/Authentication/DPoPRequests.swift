import Foundation
import HTTPTypes
import Hummingbird
import SesameJOSE
import SesameProtocol

/// The `DPoP` header of a request to the server itself (RFC 9449): checked by the provider's
/// ``DPoPProofCheck`` against the URL the client addressed (the issuer and the request's path,
/// §4.3 item 9), its refusals turned into HTTP: 400 with the `error` at `/token` (§5.1), 401 with
/// `WWW-Authenticate: DPoP` at a resource (§7.1), and a fresh `DPoP-Nonce` header with
/// `use_dpop_nonce` (§8).
struct DPoPRequests: Sendable {
    let check: DPoPProofCheck
    /// The issuer identifier: the URLs of the server's endpoints start with it.
    let issuer: String
    /// `dpop_signing_alg_values_supported`, for the `algs` of a challenge (§7.1).
    let algorithms: [String]

    /// The verified proof of a token request, or `nil` without a `DPoP` header.
    func tokenRequestProof(_ request: Request) async throws -> VerifiedDPoPProof? {
        do {
            return try await check.check(
                headers: proofs(request), method: request.method.rawValue, url: url(of: request))
        } catch let failure as DPoPFailure {
            var headers: HTTPFields = [:]
            if case .useNonce(_, let nonce) = failure { headers[.dpopNonce] = nonce }
            throw EndpointFailure(failure.providerFailure, headers: headers)
        }
    }

    /// The verified proof presented with `accessToken` at a resource of the server (`/userinfo`,
    /// the account APIs), which must be signed by the key `boundTo`.
    func resourceProof(_ request: Request, accessToken: String, boundTo thumbprint: String) async throws {
        let proof: VerifiedDPoPProof?
        do {
            proof = try await check.check(
                headers: proofs(request), method: request.method.rawValue, url: url(of: request),
                accessToken: accessToken)
        } catch let failure as DPoPFailure {
            switch failure {
            case .invalidProof(let text): throw challenge(.dpopProofInvalid, text)
            case .useNonce(let text, let nonce): throw challenge(.dpopNonceRequired, text, nonce: nonce)
            }
        }
        guard let proof else {
            throw challenge(.dpopProofInvalid, "This access token is bound to a DPoP key: send a DPoP proof with it (RFC 9449 section 7).")
        }
        guard ConstantTime.equals(proof.thumbprint, thumbprint) else {
            throw challenge(.dpopProofInvalid, "The DPoP proof is signed by another key than the one the access token is bound to.")
        }
    }

    /// 401 with `WWW-Authenticate: DPoP error=…, algs=…` (§7.1).
    func challenge(_ code: APIErrorCode, _ description: String, nonce: String? = nil) -> EndpointFailure {
        var headers: HTTPFields = [
            .wwwAuthenticate: #"DPoP error="\#(code.error)", algs="\#(algorithms.joined(separator: " "))""#
        ]
        if let nonce { headers[.dpopNonce] = nonce }
        return EndpointFailure(code, description, status: .unauthorized, headers: headers)
    }

    private func proofs(_ request: Request) -> [String] {
        request.headers[values: .dpop]
    }

    private func url(of request: Request) -> String {
        issuer + request.uri.path
    }
}
