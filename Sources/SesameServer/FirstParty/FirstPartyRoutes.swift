import Hummingbird
import SesameProtocol

/// Routes of OAuth 2.0 for First-Party Applications and MFA enrolment (docs/first-party-and-accounts.md).
/// The hosted login page's MFA step posts to `/login` like the password form.
struct FirstPartyRoutes: FeatureRoutes {
    let challenge: AuthorizationChallengeEndpoint
    let enrollment: MFAEnrollmentEndpoints
    let totp: TOTPEnrollmentEndpoint
    let sms: SMSEnrollmentEndpoint

    init(
        provider: Provider, bearer: BearerAuthentication, clientAuthenticator: ClientAuthenticator,
        challenges: ChallengeGate?, metrics: ServerMetrics
    ) {
        challenge = AuthorizationChallengeEndpoint(
            provider: provider, clientAuthenticator: clientAuthenticator, challenges: challenges, metrics: metrics,
            passkeySignIn: PasskeySignIn(provider: provider, clientAuthenticator: clientAuthenticator, metrics: metrics),
            stepUp: StepUp(provider: provider, bearer: bearer, clientAuthenticator: clientAuthenticator))
        enrollment = MFAEnrollmentEndpoints(provider: provider, bearer: bearer)
        totp = TOTPEnrollmentEndpoint(provider: provider, bearer: bearer)
        sms = SMSEnrollmentEndpoint(provider: provider, bearer: bearer)
    }

    func register(on router: Router<SesameRequestContext>) {
        router.post("/authorize-challenge", use: challenge.post)
        let enrollment = enrollment
        router.get("/api/mfa", use: enrollment.list)
        router.post("/api/mfa/email", use: enrollment.enableEmail)
        // One route per method: the trie prefers the static `/api/mfa/totp` node of the POST
        // routes over a `:method` parameter, so a parameter route alone would not match them.
        for method in MFAMethod.enrollable {
            router.delete("/api/mfa/\(method.rawValue)") { try await enrollment.remove(method, request: $0, context: $1) }
        }
        router.delete("/api/mfa/:method") { request, context in
            try await enrollment.remove(nil, request: request, context: context)
        }

        router.post("/api/mfa/totp", use: totp.start)
        router.post("/api/mfa/totp/confirm", use: totp.confirm)

        router.post("/api/mfa/sms", use: sms.start)
        router.post("/api/mfa/sms/confirm", use: sms.confirm)
    }
}
