import Foundation
import SesameProtocol

/// The continuation steps every MFA flow shares (draft-ietf-oauth-first-party-apps §5.1, the
/// docs/first-party-and-accounts.md): choose a method with `auth_session` + `mfa_method`, then answer with
/// `auth_session` + `mfa_code` to get the authorization code. Holds the PKCE verifier of the
/// exchange until the code is redeemed. Thread-safe: the mutable part sits in a `LockedState`.
final class ChallengeExchange: Sendable {
    let challenges: AuthorizationChallengeClient
    let pkce: PKCE
    /// The methods the provider offered, in its order (unknown names are skipped).
    let methods: [MFAMethod]
    /// Sent with every continuation request too (e.g. `ui_locales`).
    let extraParameters: [(String, String)]
    private let state: LockedState<State>

    struct State {
        var authSession: String
        var chosen: MFAMethod?
    }

    /// - Parameter continuation: the `insufficient_authorization` answer that started it.
    init(
        challenges: AuthorizationChallengeClient, pkce: PKCE, continuation: APIError,
        extraParameters: [(String, String)]
    ) {
        self.challenges = challenges
        self.pkce = pkce
        self.extraParameters = extraParameters
        methods = (continuation.mfaMethods ?? []).compactMap(MFAMethod.init(rawValue:))
        state = LockedState(State(authSession: continuation.authSession ?? "", chosen: nil))
    }

    var metadata: ProviderMetadata { challenges.metadata }

    /// The method chosen with ``start(_:)``, if any.
    var chosenMethod: MFAMethod? { state.withLock { $0.chosen } }

    /// Chooses `method`: for email and SMS the provider sends a code and says where (masked);
    /// for TOTP nothing is sent, the choice is recorded. Calling it again re-sends the code.
    func start(_ method: MFAMethod) async throws(SesameError) -> MFADelivery {
        let session = state.withLock { $0.authSession }
        let outcome = try await challenges.send(
            [
                (AuthorizationChallengeParameter.authSession, session),
                (AuthorizationChallengeParameter.mfaMethod, method.rawValue),
            ] + extraParameters)
        guard case .insufficientAuthorization(let answer) = outcome else {
            throw .protocolViolation(
                "the authorization challenge endpoint issued a code when only an MFA method was chosen")
        }
        state.withLock { state in
            state.chosen = method
            if let renewed = answer.authSession, !renewed.isEmpty { state.authSession = renewed }
        }
        return MFADelivery(
            method: method, destination: method == .totp ? nil : answer.errorDescription,
            userMessage: answer.errorUserMessage)
    }

    /// Answers with a passkey (`mfa_method=passkey`, then `passkey_assertion`, docs/passkeys.md);
    /// returns the authorization code to redeem with ``pkce``.
    func verify(passkey authenticator: any PasskeyAuthenticator) async throws(SesameError) -> String {
        let session = state.withLock { $0.authSession }
        let outcome = try await challenges.send(
            [
                (AuthorizationChallengeParameter.authSession, session),
                (AuthorizationChallengeParameter.mfaMethod, MFAMethod.passkey.rawValue),
            ] + extraParameters)
        guard case .insufficientAuthorization(let answer) = outcome, let options = answer.passkeyOptions else {
            throw .protocolViolation("the provider offered no passkey_options for mfa_method=passkey")
        }
        state.withLock { $0.chosen = .passkey }
        return try await challenges.answer(
            options, authSession: answer.authSession ?? session, authenticator: authenticator, extra: extraParameters)
    }

    /// Submits the one-time code; returns the authorization code to redeem with ``pkce``.
    ///
    /// A wrong code throws ``SesameError/Code-swift.struct/authenticationFailed`` whose API error has
    /// `error_code` 2003 and ``SesameError/remainingAttempts``; 2004 (expired), 2005 (attempts
    /// exhausted) and 2007 (unknown `auth_session`) mean starting over.
    func verify(code: String) async throws(SesameError) -> String {
        let session = state.withLock { $0.authSession }
        let outcome = try await challenges.send(
            [
                (AuthorizationChallengeParameter.authSession, session),
                (AuthorizationChallengeParameter.mfaCode, code.trimmingCharacters(in: .whitespacesAndNewlines)),
            ] + extraParameters)
        guard case .authorizationCode(let authorizationCode) = outcome else {
            throw .protocolViolation(
                "the authorization challenge endpoint asked for more authentication after a correct code")
        }
        return authorizationCode
    }
}
