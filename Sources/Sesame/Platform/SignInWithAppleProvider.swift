#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS) || SESAME_APPLE_DECLARATIONS)
    import AuthenticationServices
    import Foundation
    import SesameProtocol

    /// Sign in with Apple as a ``FederationProvider`` (docs/federation.md): Apple's sheet through
    /// `ASAuthorizationController`, asking for the name and email, with the SHA-256 of Sesame's
    /// nonce (``AppleNonce``); the identity token is handed to Sesame, which keeps none of
    /// Apple's session. Register the provider on the server as `--kind apple --audience <bundle id>`.
    /// Cancelling the sheet is ``SesameError/Code-swift.struct/cancelled``.
    public final class SignInWithAppleProvider: FederationProvider {
        public typealias AnchorProvider = @MainActor @Sendable () -> ASPresentationAnchor

        public let name: String
        private let anchor: AnchorProvider

        /// - Parameter name: the provider's name on the server (default `apple`).
        public init(name: String = "apple", presentationAnchor: @escaping AnchorProvider) {
            self.name = name
            self.anchor = presentationAnchor
        }

        public func signIn(nonce: String) async throws(SesameError) -> FederationCredential {
            do {
                let token = try await Self.authorize(nonce: AppleNonce.hashed(nonce), anchor: anchor)
                return FederationCredential(idToken: token)
            } catch let error as SesameError {
                throw error
            } catch {
                throw .technical(.platform("Sign in with Apple failed: \(error.localizedDescription)"))
            }
        }

        /// Apple gives no silent refresh of its identity token: the user signs in again.
        public func silentRefresh(nonce: String) async -> FederationCredential? { nil }

        /// Apple keeps no session to end in the app.
        public func signOut() async {}

        @MainActor
        private static func authorize(nonce: String, anchor: @escaping AnchorProvider) async throws -> String {
            let request = ASAuthorizationAppleIDProvider().createRequest()
            request.requestedScopes = [.fullName, .email]
            request.nonce = nonce
            let controller = ASAuthorizationController(authorizationRequests: [request])
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
        private final class Delegate: NSObject, @preconcurrency ASAuthorizationControllerDelegate,
            @preconcurrency ASAuthorizationControllerPresentationContextProviding
        {
            let anchor: AnchorProvider
            var continuation: CheckedContinuation<String, any Error>?

            init(anchor: @escaping AnchorProvider) { self.anchor = anchor }

            func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor { anchor() }

            func authorizationController(
                controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
            ) {
                guard let credential = authorization.credential as? ASAuthorizationAppleIDCredential,
                    let data = credential.identityToken, let token = String(data: data, encoding: .utf8)
                else {
                    continuation?.resume(throwing: SesameError.protocolViolation("Apple returned no identity token"))
                    continuation = nil
                    return
                }
                continuation?.resume(returning: token)
                continuation = nil
            }

            func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
                if (error as? ASAuthorizationError)?.code == .canceled {
                    continuation?.resume(throwing: SesameError.cancelled)
                } else {
                    continuation?.resume(throwing: error)
                }
                continuation = nil
            }
        }
    }
#endif
