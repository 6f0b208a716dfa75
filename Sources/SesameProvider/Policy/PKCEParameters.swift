import Foundation
import SesameProtocol
import SesameStore

/// The PKCE parameters of an authorization request (RFC 7636 §4.3) and who must send them.
///
/// RFC 9700 §2.1.1: the authorization server MUST support PKCE, public clients MUST use it
/// (also RFC 8252 §8.1), and confidential OpenID Connect clients MAY rely on `nonce` instead.
/// So a public client must send `code_challenge` with `code_challenge_method=S256`; a
/// confidential client may send neither. Whoever sends a challenge sends an S256 one: `plain`
/// (also implied by an absent method, RFC 7636 §4.3), unknown methods and malformed challenges
/// are refused for every client. The code remembers whether it had a challenge, so that
/// ``AuthorizationCodeGrant`` can enforce the verifier and refuse a PKCE downgrade
/// (RFC 9700 §4.8.2).
package enum PKCEParameters {
    /// Why the PKCE parameters were refused.
    package enum Refusal: Error, Sendable, Equatable {
        /// A public client (or `/authorize-challenge`) sent no `code_challenge`.
        case missingChallenge
        /// `code_challenge_method` is absent (meaning `plain`), `plain` or unknown.
        case methodNotS256
        /// The challenge is not the 43-character base64url encoding of a SHA-256 digest.
        case malformedChallenge
        /// `code_challenge_method` without `code_challenge`.
        case methodWithoutChallenge

        package var code: APIErrorCode {
            switch self {
            case .missingChallenge, .methodNotS256: .pkceRequired
            case .malformedChallenge, .methodWithoutChallenge: .invalidRequest
            }
        }

        package var description: String {
            switch self {
            case .missingChallenge: "code_challenge is required (PKCE S256)."
            case .methodNotS256: "code_challenge_method must be S256."
            case .malformedChallenge: "code_challenge must be the base64url SHA-256 of the verifier."
            case .methodWithoutChallenge: "code_challenge_method was sent without code_challenge."
            }
        }
    }

    /// The validated S256 challenge, or `nil` when none was sent and none is `required`.
    /// An empty value counts as absent (RFC 6749 §3.1).
    package static func challenge(
        in parameters: [String: String], required: Bool
    ) throws(Refusal) -> String? {
        guard let challenge = parameters[OAuthParameter.codeChallenge], !challenge.isEmpty else {
            if required { throw .missingChallenge }
            if let method = parameters[OAuthParameter.codeChallengeMethod], !method.isEmpty {
                throw .methodWithoutChallenge
            }
            return nil
        }
        guard parameters[OAuthParameter.codeChallengeMethod] == PKCE.method else { throw .methodNotS256 }
        guard challenge.utf8.count == 43, PKCE.isValidVerifier(challenge),
            Base64URL.decode(challenge)?.count == 32
        else { throw .malformedChallenge }
        return challenge
    }

    /// The validated S256 challenge of a request that must have one.
    package static func requiredChallenge(in parameters: [String: String]) throws(Refusal) -> String {
        guard let challenge = try challenge(in: parameters, required: true) else { throw .missingChallenge }
        return challenge
    }
}
