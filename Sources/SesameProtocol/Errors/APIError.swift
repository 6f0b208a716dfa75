import Foundation

/// The error body every Sesame endpoint returns, defined once so the SDK decodes exactly what
/// the server encodes.
///
/// It is an RFC 6749 §5.2 error response (`error`, `error_description`, `error_uri`) extended
/// with the fields of Sesame's API error model (docs/errors.md): a per-occurrence `error_id` for
/// support, the stable numeric `error_code` (see ``APIErrorCode``), a localized
/// `error_user_msg` that apps may show as is, the `error_message_key` it was localized from,
/// and per-field `error_details`.
public struct APIError: Codable, Sendable, Equatable, Error, CustomStringConvertible {
    /// RFC 6749 §5.2 / OIDC Core §3.1.2.6 error code, e.g. `invalid_grant`.
    public var error: String
    /// Developer-facing English text. Never contains secrets.
    public var errorDescription: String?
    /// RFC 6749 §5.2 `error_uri`: a page about the error for developers; Sesame does not send it.
    public var errorURI: String?
    /// Unique id of this occurrence, also written to the server log.
    public var errorID: String?
    /// Stable numeric code from ``APIErrorCode``.
    public var errorCode: Int?
    /// End-user text localized from `ui_locales` / `Accept-Language`.
    public var errorUserMessage: String?
    /// The localization key `errorUserMessage` came from, e.g. `error.invalid_credentials`.
    public var errorMessageKey: String?
    /// Field-level validation failures.
    public var errorDetails: [FieldError]?
    /// draft-ietf-oauth-first-party-apps §5.2.2: the session to continue an
    /// `insufficient_authorization` exchange with.
    public var authSession: String?
    /// With `insufficient_authorization`: the MFA methods the user can use (`email`, `sms`, `totp`).
    public var mfaMethods: [String]?
    /// With a wrong code or PIN: attempts left before the exchange is cancelled.
    public var remainingAttempts: Int?
    /// With HTTP 429 (`too_many_attempts`, 2009): seconds to wait before trying again, the same
    /// value as the `Retry-After` header (RFC 9110 §10.2.3).
    public var retryAfter: Int?
    /// With HTTP 429 `proof_of_work_required` (4001): the challenge to solve before the same
    /// request is sent again (``ProofOfWorkChallenge``).
    public var challenge: ProofOfWorkChallenge?
    /// With `insufficient_authorization` of a passkey sign-in or a passkey step-up: the options
    /// to hand to the authenticator (WebAuthn §5.5), answered with `passkey_assertion`.
    public var passkeyOptions: CredentialRequestOptionsJSON?
    /// With a refused passkey ceremony: the WebAuthn Level 3 step that failed, e.g.
    /// `7.2 step 12 (origin)`.
    public var ceremonyStep: String?

    /// An error body with the members given (`challenge`, `passkeyOptions`, `ceremonyStep`: `nil`).
    public init(
        error: String, errorDescription: String? = nil, errorURI: String? = nil,
        errorID: String? = nil, errorCode: Int? = nil, errorUserMessage: String? = nil,
        errorMessageKey: String? = nil, errorDetails: [FieldError]? = nil,
        authSession: String? = nil, mfaMethods: [String]? = nil, remainingAttempts: Int? = nil,
        retryAfter: Int? = nil
    ) {
        self.error = error
        self.errorDescription = errorDescription
        self.errorURI = errorURI
        self.errorID = errorID
        self.errorCode = errorCode
        self.errorUserMessage = errorUserMessage
        self.errorMessageKey = errorMessageKey
        self.errorDetails = errorDetails
        self.authSession = authSession
        self.mfaMethods = mfaMethods
        self.remainingAttempts = remainingAttempts
        self.retryAfter = retryAfter
    }

    /// An error for a code from the table, with its default description and message key.
    public init(
        _ code: APIErrorCode, description: String? = nil, details: [FieldError]? = nil,
        errorID: String? = nil
    ) {
        self.init(
            error: code.error, errorDescription: description ?? code.defaultDescription,
            errorID: errorID, errorCode: code.rawValue, errorMessageKey: code.messageKey,
            errorDetails: details)
    }

    /// The table entry for `errorCode`, when it is one Sesame knows.
    public var code: APIErrorCode? { errorCode.flatMap(APIErrorCode.init(rawValue:)) }

    /// `error`, then `: error_description` and ` (error_id …)` when present; for logs.
    public var description: String {
        var text = error
        if let errorDescription { text += ": \(errorDescription)" }
        if let errorID { text += " (error_id \(errorID))" }
        return text
    }

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
        case errorURI = "error_uri"
        case errorID = "error_id"
        case errorCode = "error_code"
        case errorUserMessage = "error_user_msg"
        case errorMessageKey = "error_message_key"
        case errorDetails = "error_details"
        case authSession = "auth_session"
        case mfaMethods = "mfa_methods"
        case remainingAttempts = "remaining_attempts"
        case retryAfter = "retry_after"
        case challenge
        case passkeyOptions = "passkey_options"
        case ceremonyStep = "ceremony_step"
    }
}

/// One invalid input field (`error_details[]`, docs/errors.md).
public struct FieldError: Codable, Sendable, Equatable {
    /// The request field, e.g. `email` or `password`.
    public var field: String
    /// Localized, human-readable message.
    public var message: String
    /// Machine-readable reason, e.g. `required`, `too_short`, `invalid_format`, `taken`.
    public var code: String

    /// A field error: `field` failed for the ``FieldErrorCode`` `code`, explained by `message`.
    public init(field: String, message: String, code: String) {
        self.field = field
        self.message = message
        self.code = code
    }
}
