import Foundation
import SesameProtocol

extension SesameClient {
    /// A new DPoP key for a sign-in (RFC 9449 §5), or `nil` for bearer tokens, as
    /// ``SesameConfiguration/dpop`` and the provider's `dpop_signing_alg_values_supported` decide.
    func dpopKeyForSignIn(_ metadata: ProviderMetadata) throws(SesameError) -> (any DPoPKey)? {
        let supported = metadata.dpopSigningAlgValuesSupported?.contains("ES256") == true
        switch configuration.dpop {
        case .off:
            return nil
        case .whenSupported:
            guard supported else { return nil }
        case .required:
            guard supported else {
                throw .invalidConfiguration(
                    "dpop is required, but the provider does not announce DPoP with ES256 (dpop_signing_alg_values_supported); set dpop to when_supported or off")
            }
        }
        do {
            return try dpopKeys.makeKey()
        } catch {
            throw .technical(.storage("could not create a DPoP key: \(error)"))
        }
    }

    /// The DPoP key a stored session's tokens are bound to, or `nil` for bearer tokens.
    func dpopKey(of session: StoredSession) throws(SesameError) -> (any DPoPKey)? {
        guard session.isDPoPBound, let material = session.dpopKey else { return nil }
        do {
            return try dpopKeys.key(from: material)
        } catch let error as SesameError {
            throw error
        } catch {
            throw .technical(.storage("the account's DPoP key could not be loaded: \(error); sign in again"))
        }
    }
}
