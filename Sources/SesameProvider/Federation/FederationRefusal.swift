import Foundation
import SesameProtocol
import SesameStore

/// Why a provider's token was refused (docs/federation.md), each with its own `error_code`.
/// The description names the rule for developers; `error_user_msg` is localized from the code.
package enum FederationRefusal: Error, Sendable, Equatable {
    /// `subject_issuer` names no registered provider.
    case unknownProvider(String)
    /// The provider's keys cannot be had.
    case keys(String)
    /// Not a JWS, an algorithm we do not accept, a bad signature, another `iss`, a bad `nonce`.
    case invalidToken(rule: String, String)
    case wrongAudience(String)
    case expired(String)
    case missingClaim(String)
    /// `email_verified` is not true and the provider may not create accounts with such emails,
    /// or such an email equals an existing account's.
    case unverifiedEmail(String)
    /// A local account has the email and the provider may not link to it.
    case accountExists(String)

    package var code: APIErrorCode {
        switch self {
        case .unknownProvider: .unknownFederationProvider
        case .keys, .invalidToken: .federationTokenInvalid
        case .wrongAudience: .federationAudienceMismatch
        case .expired: .federationTokenExpired
        case .missingClaim: .federationClaimMissing
        case .unverifiedEmail: .federationEmailUnverified
        case .accountExists: .federationAccountExists
        }
    }

    /// The rule, for the audit log.
    package var rule: String {
        switch self {
        case .unknownProvider: "unknown_provider"
        case .keys: "keys"
        case .invalidToken(let rule, _): rule
        case .wrongAudience: "aud"
        case .expired: "exp"
        case .missingClaim: "required_claim"
        case .unverifiedEmail: "email_verified"
        case .accountExists: "account_exists"
        }
    }

    package var description: String {
        switch self {
        case .unknownProvider(let detail), .keys(let detail), .invalidToken(_, let detail), .wrongAudience(let detail),
            .expired(let detail), .missingClaim(let detail), .unverifiedEmail(let detail), .accountExists(let detail):
            detail
        }
    }

    package var endpointFailure: ProviderFailure { ProviderFailure(code, description) }
}
