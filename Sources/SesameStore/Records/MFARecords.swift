import Foundation
import SesameProtocol

// Values persisted by an ``MFAStore``. Secrets never appear in clear: auth sessions and
// one-time codes are SHA-256 digests (``SecretDigest``), TOTP secrets are sealed with the data
// directory's master key (AES-256-GCM, see ``KeyRing/sealSecret(_:context:)``).

/// A user's second factor, confirmed or pending (docs/first-party-and-accounts.md, MFA enrolment).
public struct MFAEnrollmentRecord: Sendable, Equatable {
    public var userID: String
    public var method: MFAMethod
    /// Email is confirmed at once (the address is verified); TOTP after a first valid code;
    /// SMS after the code sent to the number.
    public var confirmed: Bool
    /// TOTP: the secret, sealed (base64 of AES-GCM nonce‖ciphertext‖tag).
    public var sealedSecret: String?
    /// SMS: the E.164 number codes go to.
    public var phoneNumber: String?
    /// SMS: digest of the pending confirmation code.
    public var codeDigest: String?
    public var codeExpiresAt: Date?
    /// Wrong confirmation codes so far.
    public var attempts: Int
    public var createdAt: Date
    public var confirmedAt: Date?

    public init(
        userID: String, method: MFAMethod, confirmed: Bool, sealedSecret: String? = nil,
        phoneNumber: String? = nil, codeDigest: String? = nil, codeExpiresAt: Date? = nil,
        attempts: Int = 0, createdAt: Date, confirmedAt: Date? = nil
    ) {
        self.userID = userID
        self.method = method
        self.confirmed = confirmed
        self.sealedSecret = sealedSecret
        self.phoneNumber = phoneNumber
        self.codeDigest = codeDigest
        self.codeExpiresAt = codeExpiresAt
        self.attempts = attempts
        self.createdAt = createdAt
        self.confirmedAt = confirmedAt
    }
}

/// A first-party sign-in waiting for its second factor: the state behind an `auth_session`
/// (draft-ietf-oauth-first-party-apps §5.2.2). Bound to the client, the user, the PKCE
/// challenge and the scope of the request that created it; deleted when a code is issued or
/// the attempts run out.
public struct AuthSessionRecord: Sendable, Equatable {
    /// ``SecretDigest`` of the `auth_session` value (256 random bits).
    public var sessionDigest: String
    public var clientID: String
    public var userID: String
    public var scope: String
    /// RFC 7636 S256 challenge the authorization code will carry; `nil` only for a hosted
    /// login page request of a confidential client that sent none (RFC 9700 §2.1.1).
    public var codeChallenge: String?
    /// Empty for `/authorize-challenge`; the browser request's redirect URI for the hosted
    /// login page's MFA step.
    public var redirectURI: String
    /// OIDC nonce of a browser request.
    public var nonce: String?
    /// The methods offered; only these can be chosen.
    public var methods: [MFAMethod]
    /// RFC 8176 `amr` of the factor already proven (`["pwd"]`, or the step-up token's).
    public var firstFactor: [String]
    /// `max_age=0`: the code gives a short-lived access token and no refresh token.
    public var reauthentication: Bool
    /// `ui_locales` of the request that started it, for messages sent later.
    public var uiLocales: String?
    public var chosenMethod: MFAMethod?
    /// Digest of the email/SMS code sent for ``chosenMethod``.
    public var codeDigest: String?
    public var codeExpiresAt: Date?
    /// Codes sent so far (bounds the messages one session can trigger).
    public var codesSent: Int
    /// Wrong answers so far.
    public var attempts: Int
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        sessionDigest: String, clientID: String, userID: String, scope: String,
        codeChallenge: String?, redirectURI: String = "", nonce: String? = nil,
        methods: [MFAMethod], firstFactor: [String], reauthentication: Bool = false,
        uiLocales: String? = nil, chosenMethod: MFAMethod? = nil, codeDigest: String? = nil,
        codeExpiresAt: Date? = nil, codesSent: Int = 0, attempts: Int = 0, createdAt: Date,
        expiresAt: Date
    ) {
        self.sessionDigest = sessionDigest
        self.clientID = clientID
        self.userID = userID
        self.scope = scope
        self.codeChallenge = codeChallenge
        self.redirectURI = redirectURI
        self.nonce = nonce
        self.methods = methods
        self.firstFactor = firstFactor
        self.reauthentication = reauthentication
        self.uiLocales = uiLocales
        self.chosenMethod = chosenMethod
        self.codeDigest = codeDigest
        self.codeExpiresAt = codeExpiresAt
        self.codesSent = codesSent
        self.attempts = attempts
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
