import Foundation
import SesameProtocol

extension SesameClient {
    /// Signs in with whatever the user picks in one sheet (docs/passkeys.md): a saved password, a
    /// passkey or Sign in with Apple, among `request.methods` that `sheet` can offer here. The
    /// passkey options (and their `auth_session`) and Apple's nonce are prepared first, so the
    /// sheet shows everything at once; the choice then finishes as ``login(username:password:options:)``,
    /// ``Passkeys/signIn(username:using:options:)`` or ``Federation/signIn(withProviderToken:provider:nonce:)`` would.
    ///
    /// - Throws: ``SesameError/Code-swift.struct/invalidConfiguration`` naming the available methods when none
    ///   of the requested ones is (on Linux there is no Sign in with Apple).
    public func login(withRequest request: CombinedSignInRequest, sheet: any SignInSheet) async throws(SesameError)
        -> NativeLoginResult
    {
        let available = await sheet.availableMethods()
        let offered = request.methods.intersection(available)
        guard !offered.isEmpty else {
            throw .invalidConfiguration(
                "none of the requested sign-in methods (\(request.methods.map(\.rawValue).sorted().joined(separator: ", "))) is available here; available: \(available.isEmpty ? "none" : available.map(\.rawValue).sorted().joined(separator: ", "))")
        }
        var passkey: (session: String, options: CredentialRequestOptionsJSON, pkce: PKCE, challenges: AuthorizationChallengeClient)?
        let extra = Self.localeParameters(request.options.uiLocales)
        if offered.contains(.passkey) {
            let start = try await nativeStart(request.options)
            let (challenges, pkce) = (start.challenges, start.pkce)
            var parameters = start.parameters
            parameters.append((AuthorizationChallengeParameter.challengeType, AuthorizationChallengeParameter.passkeyChallenge))
            if let username = request.username { parameters.append((AuthorizationChallengeParameter.username, username)) }
            if case .insufficientAuthorization(let continuation) = try await challenges.send(parameters + extra),
                let session = continuation.authSession, let options = continuation.passkeyOptions
            {
                passkey = (session, options, pkce, challenges)
            }
        }
        let appleNonce = offered.contains(.signInWithApple) ? SecureRandom.token() : nil
        analytics.record(.signInStarted, ["method": "sheet"])
        switch try await sheet.present(request, passkeyOptions: passkey?.options, appleNonce: appleNonce) {
        case .password(let username, let password):
            return try await login(username: username, password: password, options: request.options)
        case .passkey(let assertion):
            guard let passkey else { throw .protocolViolation("the sheet answered with a passkey that was not offered") }
            let code = try await passkey.challenges.send(assertion, authSession: passkey.session, extra: extra)
            let account = try await finishNativeLogin(
                code: code, verifier: passkey.pkce.verifier, metadata: passkey.challenges.metadata,
                username: request.username, options: request.options)
            analytics.record(.signInSucceeded, ["method": "passkey"])
            return .signedIn(account)
        case .signInWithApple(let identityToken):
            return .signedIn(try await federation.signIn(withProviderToken: identityToken, provider: request.appleProvider, nonce: appleNonce))
        }
    }
}
