#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS) || SESAME_APPLE_DECLARATIONS)
    import AuthenticationServices
    import Foundation
    import SesameProtocol

    /// The system's passkeys (iCloud Keychain, a password manager, a nearby phone) as a
    /// ``PasskeyAuthenticator`` (docs/passkeys.md), through
    /// `ASAuthorizationPlatformPublicKeyCredentialProvider`. The app needs the
    /// `webcredentials:<rp id>` associated domain; the server lists nothing else (the system
    /// writes the RP's web origin into the client data). The request and response mapping is
    /// ``PlatformPasskeyMapping``, tested on Linux. Cancelling the sheet is
    /// ``PasskeyAuthenticatorError/cancelled``.
    @available(iOS 16.0, macOS 13.0, visionOS 1.0, *)
    public final class PlatformPasskeyAuthenticator: PasskeyAuthenticator {
        public typealias AnchorProvider = @MainActor @Sendable () -> ASPresentationAnchor
        private let anchor: AnchorProvider

        public init(presentationAnchor: @escaping AnchorProvider) {
            self.anchor = presentationAnchor
        }

        public func register(_ options: CredentialCreationOptionsJSON) async throws(PasskeyAuthenticatorError)
            -> RegistrationResponseJSON
        {
            let mapped = try PlatformPasskeyMapping.registration(options)
            let credential = try await perform(anchor) {
                let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: mapped.relyingPartyID)
                let request = provider.createCredentialRegistrationRequest(
                    challenge: mapped.challenge, name: mapped.userName, userID: mapped.userID)
                request.userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
                    rawValue: mapped.userVerification)
                if #available(iOS 17.4, macOS 14.4, visionOS 1.1, *) {
                    request.excludedCredentials = mapped.excludedCredentialIDs.map {
                        ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                    }
                }
                return request
            }
            guard case .registration(let credentialID, let clientDataJSON, let attestationObject) = credential else {
                throw .unavailable("the system returned no passkey registration")
            }
            return try PlatformPasskeyMapping.registrationResponse(
                credentialID: credentialID, clientDataJSON: clientDataJSON, attestationObject: attestationObject)
        }

        public func authenticate(_ options: CredentialRequestOptionsJSON) async throws(PasskeyAuthenticatorError)
            -> AuthenticationResponseJSON
        {
            let mapped = try PlatformPasskeyMapping.assertion(options)
            let credential = try await perform(anchor) {
                let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: mapped.relyingPartyID)
                let request = provider.createCredentialAssertionRequest(challenge: mapped.challenge)
                request.userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
                    rawValue: mapped.userVerification)
                request.allowedCredentials = mapped.allowedCredentialIDs.map {
                    ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                }
                return request
            }
            guard case .assertion(let credentialID, let clientDataJSON, let authenticatorData, let signature, let userID) = credential
            else { throw .unavailable("the system returned no passkey assertion") }
            return PlatformPasskeyMapping.assertionResponse(
                credentialID: credentialID, clientDataJSON: clientDataJSON, authenticatorData: authenticatorData,
                signature: signature, userID: userID)
        }

        /// Runs one request through `ASAuthorizationController`; the credential it gave.
        private func perform(
            _ anchor: @escaping AnchorProvider, _ makeRequest: @escaping @MainActor () -> ASAuthorizationRequest
        ) async throws(PasskeyAuthenticatorError) -> PlatformCredential {
            do {
                return try await PlatformAuthorization.perform([makeRequest], anchor: anchor)
            } catch let error as ASAuthorizationError where error.code == .canceled {
                throw .cancelled
            } catch {
                throw .unavailable(error.localizedDescription)
            }
        }
    }

    /// What the system answered, copied out on the main actor into values that may cross it.
    @available(iOS 16.0, macOS 13.0, visionOS 1.0, *)
    enum PlatformCredential: Sendable {
        case registration(credentialID: Data, clientDataJSON: Data, attestationObject: Data?)
        case assertion(credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userID: Data?)
        case password(user: String, password: String)
        case appleID(identityToken: Data?)
        case other

        @MainActor
        init(_ credential: any ASAuthorizationCredential) {
            switch credential {
            case let registration as ASAuthorizationPlatformPublicKeyCredentialRegistration:
                self = .registration(
                    credentialID: registration.credentialID, clientDataJSON: registration.rawClientDataJSON,
                    attestationObject: registration.rawAttestationObject)
            case let assertion as ASAuthorizationPlatformPublicKeyCredentialAssertion:
                self = .assertion(
                    credentialID: assertion.credentialID, clientDataJSON: assertion.rawClientDataJSON,
                    authenticatorData: assertion.rawAuthenticatorData, signature: assertion.signature,
                    userID: assertion.userID)
            case let password as ASPasswordCredential:
                self = .password(user: password.user, password: password.password)
            case let apple as ASAuthorizationAppleIDCredential:
                self = .appleID(identityToken: apple.identityToken)
            default:
                self = .other
            }
        }
    }

    /// One `ASAuthorizationController` run, as an async call (shared with `PlatformSignInSheet`).
    @available(iOS 16.0, macOS 13.0, visionOS 1.0, *)
    enum PlatformAuthorization {
        @MainActor
        static func perform(
            _ requests: [@MainActor () -> ASAuthorizationRequest], anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
        ) async throws -> PlatformCredential {
            let controller = ASAuthorizationController(authorizationRequests: requests.map { $0() })
            let delegate = Delegate(anchor: anchor)
            controller.delegate = delegate
            controller.presentationContextProvider = delegate
            return try await withCheckedThrowingContinuation { continuation in
                delegate.continuation = continuation
                controller.performRequests()
            }
        }

        /// The delegate protocols are not isolated; the system calls them on the main thread, which
        /// the `@preconcurrency` conformances check at run time.
        @MainActor
        final class Delegate: NSObject, @preconcurrency ASAuthorizationControllerDelegate,
            @preconcurrency ASAuthorizationControllerPresentationContextProviding
        {
            let anchor: @MainActor @Sendable () -> ASPresentationAnchor
            var continuation: CheckedContinuation<PlatformCredential, any Error>?

            init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) { self.anchor = anchor }

            func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor { anchor() }

            func authorizationController(
                controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
            ) {
                continuation?.resume(returning: PlatformCredential(authorization.credential))
                continuation = nil
            }

            func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
                continuation?.resume(throwing: error)
                continuation = nil
            }
        }
    }
#endif
