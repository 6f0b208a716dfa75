#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS) || SESAME_APPLE_DECLARATIONS)
    import AuthenticationServices
    import Foundation
    import SesameProtocol

    /// The system's combined sign-in sheet (docs/passkeys.md): one `ASAuthorizationController`
    /// with the saved-password request, the passkey assertion request and the Sign in with Apple
    /// request, as ``SesameClient/login(withRequest:sheet:)`` prepared them. The mapping of the
    /// passkey answer is ``PlatformPasskeyMapping`` (tested on Linux); Apple's nonce is hashed as
    /// ``AppleNonce`` says.
    @available(iOS 16.0, macOS 13.0, visionOS 1.0, *)
    public struct PlatformSignInSheet: SignInSheet {
        public typealias AnchorProvider = @MainActor @Sendable () -> ASPresentationAnchor
        private let anchor: AnchorProvider

        public init(presentationAnchor: @escaping AnchorProvider) {
            self.anchor = presentationAnchor
        }

        public func availableMethods() async -> Set<SignInMethod> { Set(SignInMethod.allCases) }

        public func present(
            _ request: CombinedSignInRequest, passkeyOptions: CredentialRequestOptionsJSON?, appleNonce: String?
        ) async throws(SesameError) -> SignInSheetCredential {
            let passkey = try passkeyOptions.map { options throws(SesameError) in
                do throws(PasskeyAuthenticatorError) {
                    return try PlatformPasskeyMapping.assertion(options)
                } catch {
                    throw .passkeyUnavailable(error)
                }
            }
            var requests: [@MainActor () -> ASAuthorizationRequest] = []
            if request.methods.contains(.password) {
                requests.append { ASAuthorizationPasswordProvider().createRequest() }
            }
            if let passkey {
                requests.append {
                    let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: passkey.relyingPartyID)
                    let assertion = provider.createCredentialAssertionRequest(challenge: passkey.challenge)
                    assertion.userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
                        rawValue: passkey.userVerification)
                    assertion.allowedCredentials = passkey.allowedCredentialIDs.map {
                        ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                    }
                    return assertion
                }
            }
            if let appleNonce {
                requests.append {
                    let apple = ASAuthorizationAppleIDProvider().createRequest()
                    apple.requestedScopes = [.fullName, .email]
                    apple.nonce = AppleNonce.hashed(appleNonce)
                    return apple
                }
            }
            let credential: PlatformCredential
            do {
                credential = try await PlatformAuthorization.perform(requests, anchor: anchor)
            } catch let error as ASAuthorizationError where error.code == .canceled {
                throw .cancelled
            } catch {
                throw .technical(.platform("the sign-in sheet failed: \(error.localizedDescription)"))
            }
            switch credential {
            case .password(let user, let password):
                return .password(username: user, password: password)
            case .assertion(let credentialID, let clientDataJSON, let authenticatorData, let signature, let userID):
                return .passkey(
                    PlatformPasskeyMapping.assertionResponse(
                        credentialID: credentialID, clientDataJSON: clientDataJSON, authenticatorData: authenticatorData,
                        signature: signature, userID: userID))
            case .appleID(let identityToken):
                guard let data = identityToken, let token = String(data: data, encoding: .utf8) else {
                    throw .protocolViolation("Apple returned no identity token")
                }
                return .signInWithApple(identityToken: token)
            default:
                throw .protocolViolation("the sign-in sheet returned an unexpected credential")
            }
        }
    }
#endif
