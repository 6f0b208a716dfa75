import Foundation
import SesameProtocol

/// A pending second-factor step (docs/first-party-and-accounts.md): the methods the provider offers, ``start(_:)`` to
/// choose one (an email or SMS code is sent), ``verify(code:)`` to finish. Implemented by
/// ``MFAChallenge`` (sign-in and step-up) and ``ReauthenticationChallenge``, so that one UI
/// (or the CLI's prompt) drives all of them.
public protocol MFAContinuation: Sendable {
    /// What a successful verification yields: the signed-in ``Account`` for ``MFAChallenge``, a
    /// ``ReauthenticationGrant`` for ``ReauthenticationChallenge``.
    associatedtype Outcome: Sendable
    /// The second factors the user can use now, in the provider's order.
    var methods: [MFAMethod] { get }
    /// The method chosen with ``start(_:)``, if any.
    var chosenMethod: MFAMethod? { get }
    /// Chooses a method; for email and SMS the provider sends a code.
    func start(_ method: MFAMethod) async throws(SesameError) -> MFADelivery
    /// Submits the code the user typed.
    func verify(code: String) async throws(SesameError) -> Outcome
    /// Answers `MFAMethod.passkey` with `authenticator` (docs/passkeys.md).
    func verify(with authenticator: any PasskeyAuthenticator) async throws(SesameError) -> Outcome
}

/// The second-factor step of native sign-in or of a step-up (docs/first-party-and-accounts.md). Holds the client, the
/// opaque `auth_session` and the PKCE verifier; it is cheap to keep while the user reads the
/// code. A wrong code can be retried while ``SesameError/remainingAttempts`` is above zero.
public final class MFAChallenge: MFAContinuation {
    enum Purpose: Sendable {
        /// Native sign-in: store a new session for the user who typed `username`.
        case signIn(username: String, options: NativeLoginOptions)
        /// Step-up of the account's session (generation as when step-up began).
        case stepUp(account: Account.ID, generation: UInt64, acr: String)
    }

    let client: SesameClient
    let exchange: ChallengeExchange
    let purpose: Purpose

    init(client: SesameClient, exchange: ChallengeExchange, purpose: Purpose) {
        self.client = client
        self.exchange = exchange
        self.purpose = purpose
    }

    /// The second factors the provider offers for this sign-in or step-up, in its order.
    public var methods: [MFAMethod] { exchange.methods }

    /// The method last chosen with ``start(_:)``; `nil` until then.
    public var chosenMethod: MFAMethod? { exchange.chosenMethod }

    /// Chooses `method`. For `MFAMethod.email` and `MFAMethod.sms` the provider sends a
    /// code and ``MFADelivery/destination`` says where (masked); for `MFAMethod.totp` nothing
    /// is sent: the user reads the code from the authenticator app. Calling it again re-sends.
    public func start(_ method: MFAMethod) async throws(SesameError) -> MFADelivery {
        try await exchange.start(method)
    }

    /// Submits the code. On success the tokens are redeemed (PKCE) and the ID token validated;
    /// for sign-in the account is stored, made current and announced with
    /// ``SesameEvent/signedIn(_:)``; for step-up the account's tokens are replaced by ones with
    /// the higher `acr` and ``SesameEvent/refreshed(_:)`` is published.
    ///
    /// - Throws: ``SesameError/Code-swift.struct/authenticationFailed`` for a wrong code, with
    ///   ``SesameError/remainingAttempts``; when none remain, start the sign-in again.
    public func verify(code: String) async throws(SesameError) -> Account {
        try await complete(try await exchange.verify(code: code))
    }

    /// Answers with a passkey instead of a code (`MFAMethod.passkey` in ``methods``): the
    /// server's options go to `authenticator`, its assertion back (WebAuthn §7.2). The tokens
    /// then carry `acr` `urn:sesame:acr:mfa` and the passkey's `amr` (`hwk` or `swk`, `user`,
    /// `pin` when verified), as after a code.
    public func verify(with authenticator: any PasskeyAuthenticator) async throws(SesameError) -> Account {
        try await complete(try await exchange.verify(passkey: authenticator))
    }

    private func complete(_ authorizationCode: String) async throws(SesameError) -> Account {
        switch purpose {
        case .signIn(let username, let options):
            do {
                let account = try await client.finishNativeLogin(
                    code: authorizationCode, verifier: exchange.pkce.verifier, metadata: exchange.metadata,
                    username: username, options: options)
                client.analytics.record(.signInSucceeded, ["method": "password", "mfa": "true"])
                return account
            } catch {
                client.analytics.failed(error, method: "password")
                throw error
            }
        case .stepUp(let account, let generation, let acr):
            return try await client.finishStepUp(
                code: authorizationCode, verifier: exchange.pkce.verifier, metadata: exchange.metadata,
                account: account, generation: generation, acr: acr)
        }
    }
}

/// The second-factor step of ``SesameClient/MFA/reauthenticate(password:account:)``: as
/// ``MFAChallenge``, but ``verify(code:)`` yields a short-lived ``ReauthenticationGrant`` and
/// leaves the stored session untouched.
public final class ReauthenticationChallenge: MFAContinuation {
    let client: SesameClient
    let exchange: ChallengeExchange
    let account: Account

    init(client: SesameClient, exchange: ChallengeExchange, account: Account) {
        self.client = client
        self.exchange = exchange
        self.account = account
    }

    /// The second factors the provider offers for this re-authentication, in its order.
    public var methods: [MFAMethod] { exchange.methods }

    /// The method last chosen with ``start(_:)``; `nil` until then.
    public var chosenMethod: MFAMethod? { exchange.chosenMethod }

    /// See ``MFAChallenge/start(_:)``.
    public func start(_ method: MFAMethod) async throws(SesameError) -> MFADelivery {
        try await exchange.start(method)
    }

    /// Submits the code; see ``MFAChallenge/verify(code:)`` for the errors.
    public func verify(code: String) async throws(SesameError) -> ReauthenticationGrant {
        try await complete(try await exchange.verify(code: code))
    }

    /// Answers with a passkey instead of a code; see ``MFAChallenge/verify(with:)``. Yields the
    /// grant and leaves the stored session untouched.
    public func verify(with authenticator: any PasskeyAuthenticator) async throws(SesameError) -> ReauthenticationGrant {
        try await complete(try await exchange.verify(passkey: authenticator))
    }

    private func complete(_ authorizationCode: String) async throws(SesameError) -> ReauthenticationGrant {
        try await client.finishReauthentication(
            code: authorizationCode, verifier: exchange.pkce.verifier, metadata: exchange.metadata,
            account: account)
    }
}
