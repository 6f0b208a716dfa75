import SesameProtocol

/// draft-ietf-oauth-first-party-apps §5.2.2: the `insufficient_authorization` answer of
/// `/authorize-challenge` that continues the sign-in, carrying the `auth_session` to send back
/// and the second-factor methods on offer (`mfa_methods`).
struct ChallengeContinuation: APIErrorRendering {
    var failure: ProviderFailure
    /// The session token (shown once; the store keeps its digest).
    let authSession: String
    let methods: [MFAMethod]
    /// With a passkey sign-in or `mfa_method=passkey`: the WebAuthn options to answer.
    var passkeyOptions: CredentialRequestOptionsJSON?

    func decorate(_ body: inout APIError) {
        body.authSession = authSession
        body.mfaMethods = methods.map(\.rawValue)
        body.passkeyOptions = passkeyOptions
    }
}
