/// Where the hosted pages load their scripts from: same-origin files (the pages' policy allows
/// `script-src 'self'` and nothing inline, ``ContentSecurityPolicy``). The features that serve
/// them (``PasskeyScripts``, ``ChallengeScripts``) route these paths; the templates below them
/// only name the paths.
enum PageScripts {
    /// The passkey button's script (WebAuthn Level 3 §5.1.3, `navigator.credentials`).
    static let passkey = "/assets/passkey.js"
    /// The abuse challenge's page script and its worker (proof of work off the main thread).
    static let challenge = "/assets/challenge.js"
    static let challengeWorker = "/assets/challenge-worker.js"
}
