/// The stable numeric error codes of the Sesame API: the one place they are defined.
/// `docs/errors.md` is generated from the same list. Codes are never reused or renumbered.
///
/// Ranges: 1xxx OAuth/OIDC protocol, 2xxx authentication, 3xxx accounts and profile,
/// 4xxx abuse protection, 5xxx server.
public enum APIErrorCode: Int, Sendable, CaseIterable, Codable {
    // 1xxx — RFC 6749 §4.1.2.1, §5.2; OIDC Core §3.1.2.6, §6, §7.2.1; RFC 6750 §3.1
    /// RFC 6749 §5.2 `invalid_request`: a parameter is missing, invalid or repeated.
    case invalidRequest = 1000
    /// RFC 6749 §5.2 `invalid_client`, 401: client authentication failed (secret or assertion).
    case invalidClient = 1001
    /// RFC 6749 §5.2 `invalid_grant`: the code or refresh token is invalid, expired, revoked, used
    /// or another client's; sign in again.
    case invalidGrant = 1002
    /// RFC 6749 §5.2 `unauthorized_client`: this client may not use this grant type or endpoint,
    /// e.g. `/authorize-challenge` when it is not first-party.
    case unauthorizedClient = 1003
    /// RFC 6749 §5.2 `unsupported_grant_type`: the `grant_type` is not one of ``GrantType``.
    case unsupportedGrantType = 1004
    /// RFC 6749 §5.2 `invalid_scope`: a scope is unknown or not allowed for this client.
    case invalidScope = 1005
    /// RFC 6749 §4.1.2.1 `access_denied`, 403: the user or the server refused the request.
    case accessDenied = 1006
    /// RFC 6749 §4.1.2.1 `unsupported_response_type`: only `response_type=code` is supported.
    case unsupportedResponseType = 1007
    /// OIDC Core §3.1.2.6 `login_required`: `prompt=none` was sent, but the user must sign in (or
    /// complete a second factor).
    case loginRequired = 1008
    /// OIDC Core §3.1.2.6 `consent_required`: `prompt=none` was sent, but the user must consent.
    case consentRequired = 1009
    /// OIDC Core §3.1.2.6 `interaction_required`: `prompt=none` was sent, but the user must act.
    case interactionRequired = 1010
    /// RFC 6750 §3.1 `invalid_token`, 401: the access token is missing, expired, revoked or
    /// malformed; refresh it or sign in again.
    case invalidToken = 1011
    /// RFC 6750 §3.1 `insufficient_scope`, 403: the access token lacks a scope the resource needs.
    case insufficientScope = 1012
    /// `invalid_request`: `redirect_uri` does not exactly match a registered one (RFC 6749 §3.1.2).
    case invalidRedirectURI = 1013
    /// `invalid_request`: PKCE is missing or not `code_challenge_method=S256` (RFC 7636 §4.3).
    case pkceRequired = 1014
    /// RFC 7009 §2.2.1 `unsupported_token_type`: the server cannot revoke this type of token.
    case unsupportedTokenType = 1015
    /// `invalid_client`, 401: the `client_id` is not registered with this server.
    case unknownClient = 1016
    /// `invalid_request`, 403: a hosted page's form came without its matching CSRF token (expired,
    /// or not submitted from the page); reload it and try again.
    case csrfFailed = 1017
    /// `invalid_request`, 405: the endpoint does not answer this HTTP method.
    case methodNotAllowed = 1018
    /// `invalid_request`, 404: no such endpoint or resource.
    case notFound = 1019
    /// `invalid_request`: Request Objects (OIDC Core §6) are not supported. The server answers
    /// `request_not_supported` (1022) or `request_uri_not_supported` (1023) instead.
    case invalidRequestObject = 1020
    /// The access token belongs to a client that is not registered as first-party, so it may
    /// not call the account APIs (draft-ietf-oauth-first-party-apps, Security Considerations,
    /// "First-Party Applications"); sent as RFC 6750 §3.1 `insufficient_scope`, 403.
    case firstPartyClientRequired = 1021
    /// OIDC Core §6.1 `request_not_supported`: the `request` parameter (a Request Object by
    /// value) was sent; Sesame does not support Request Objects.
    case requestNotSupported = 1022
    /// OIDC Core §6.2 `request_uri_not_supported`: the `request_uri` parameter was sent.
    case requestURINotSupported = 1023
    /// OIDC Core §7.2.1 `registration_not_supported`: the `registration` parameter was sent.
    case registrationNotSupported = 1024
    /// The request line and headers are larger than the server accepts, or too many (RFC 6585
    /// §5: HTTP 431); answered before any endpoint sees the request.
    case requestHeaderFieldsTooLarge = 1025
    /// RFC 8693 §2.2.2, RFC 8707 §2 `invalid_target`: the request names a `resource` (or a token
    /// exchange's `audience`) this server does not issue tokens for, or one the client may not
    /// ask for or the grant did not include; the description names it and why.
    case invalidTarget = 1026
    /// RFC 9449 §5.1, §7.1 `invalid_dpop_proof`: the DPoP proof is missing where this client or
    /// grant needs one, malformed, refused by a rule of §4.3 (the description names it),
    /// replayed, or signed by another key than the one the code, refresh token or access token
    /// is bound to. Sign a fresh proof with the bound key.
    case dpopProofInvalid = 1027
    /// RFC 9449 §8 `use_dpop_nonce`: the server requires a nonce in DPoP proofs; sign the proof
    /// again with the nonce from the `DPoP-Nonce` response header and retry.
    case dpopNonceRequired = 1028
    /// RFC 8628 §3.5 `authorization_pending`: the user has not yet approved the device
    /// authorization request; keep polling at the `interval`.
    case authorizationPending = 1029
    /// RFC 8628 §3.5 `slow_down`: the device polled sooner than its `interval`; keep polling, with
    /// the interval increased by 5 seconds from now on.
    case slowDown = 1030
    /// RFC 8628 §3.5 `expired_token`: the `device_code` has expired (or was used); start a new
    /// device authorization request.
    case expiredToken = 1031
    /// RFC 8628 §3.5 `access_denied`, 400: the user denied the device authorization request; stop
    /// polling.
    case deviceAccessDenied = 1032
    /// `invalid_request`, 400: the hosted sign-in page's request is no longer held for this
    /// browser (it expired, was completed already, or was opened in another browser); go back
    /// to the app and start signing in again.
    case signInExpired = 1033
    /// `insufficient_scope`, 403: the admin API (`/admin/api/`) needs an operator role that allows
    /// this: `admin` (everything), `helpdesk` (users, their sessions and factors, the audit
    /// log) or `auditor` (reading only); the description names the role missing. Ask an
    /// administrator (`sesame user role <user> <role>`).
    case adminRoleRequired = 1034
    /// RFC 7591 §3.2.2 `invalid_client_metadata`: a registration (`/register`) asks for a grant,
    /// scope, authentication method or other setting this server does not give registered
    /// clients; the description names it.
    case invalidClientMetadata = 1035
    /// RFC 7591 §3.2.2 `invalid_redirect_uri`: a registration's redirect URI is not an `https`
    /// URI or a loopback `http` one, or is otherwise refused; the description names it.
    case invalidRedirectURIMetadata = 1036

    // 2xxx — authentication
    /// `invalid_grant`: the username or password is wrong (unknown users get the same answer), or
    /// the password confirming an account change is not the account's.
    case invalidCredentials = 2000
    /// `access_denied`, 403: the account is temporarily locked after too many failed attempts.
    /// Password throttling answers `too_many_attempts` (2009).
    case accountLocked = 2001
    /// draft-ietf-oauth-first-party-apps §5.2.2 `insufficient_authorization`: a further step
    /// (second factor or passkey) is needed; continue with `auth_session` and one of `mfa_methods`.
    case insufficientAuthorization = 2002
    /// `invalid_grant`: the one-time code (email, SMS or TOTP) is wrong; `remaining_attempts` says
    /// how many answers are left.
    case invalidMFACode = 2003
    /// `invalid_grant`: the one-time code has expired; request a new one.
    case mfaCodeExpired = 2004
    /// `invalid_grant`: the last allowed wrong code ended the `auth_session` (or discarded the
    /// pending enrolment); start again.
    case mfaAttemptsExhausted = 2005
    /// `insufficient_authorization`: the chosen `mfa_method` is not enrolled or not usable for this
    /// user; choose one of `mfa_methods`.
    case mfaMethodUnavailable = 2006
    /// `invalid_grant`: the `auth_session` is unknown, expired or used up; start the sign-in again.
    case invalidAuthSession = 2007
    /// `access_denied`, 403: email codes need a verified address; verify it first
    /// (`POST /api/signup/confirm`).
    case emailNotVerified = 2008
    /// Password guessing is throttled (OWASP Authentication Cheat Sheet, "Account Lockout";
    /// NIST SP 800-63B §5.2.2 rate limiting): too many wrong passwords for this login name or
    /// from this address. HTTP 429 (RFC 6585 §4) with `Retry-After` (RFC 9110 §10.2.3) and
    /// `retry_after`; the password was not checked.
    case tooManyAttempts = 2009
    /// A wrong device PIN (the unlock signature did not verify); `remaining_attempts` says how
    /// many are left before the registration is revoked (docs/pin-devices.md).
    case invalidPIN = 2010
    /// The PIN registration is unknown or was revoked (too many wrong PINs, or removed): the
    /// device deletes its PIN material; sign in again and register a new PIN.
    case pinRegistrationRevoked = 2011
    /// The session was ended on this device for every app of the vendor ("sign out
    /// everywhere", Native SSO): the refresh token is revoked; forget the account and sign in again.
    case sessionEndedElsewhere = 2012
    /// Federation (docs/federation.md): `subject_issuer` names no registered provider.
    case unknownFederationProvider = 2013
    /// The provider's token is not a JWS we accept, its signature or `iss` is wrong, or its
    /// `nonce` does not match.
    case federationTokenInvalid = 2014
    /// The provider's token was issued for another app (`aud`/`azp`).
    case federationAudienceMismatch = 2015
    /// The provider's token has expired (`exp`); sign in with the provider again.
    case federationTokenExpired = 2016
    /// The provider's token lacks the claim the provider's registration requires (`email`).
    case federationClaimMissing = 2017
    /// The provider has not verified the email, and the registration does not allow that, or an
    /// existing account has it (an unverified email never links to one).
    case federationEmailUnverified = 2018
    /// An account with the email exists and this provider may not link to it: sign in to it first.
    case federationAccountExists = 2019
    /// The passkey challenge is unknown, expired, used, or bound to another sign-in.
    case passkeyChallengeInvalid = 2020
    /// No such passkey, or it belongs to another account (WebAuthn §7.2 steps 5–6).
    case passkeyNotRecognized = 2021
    /// The authenticator's answer failed a WebAuthn Level 3 §7.1/§7.2 check; `ceremony_step` names it.
    case passkeyInvalid = 2022
    /// The signature counter did not increase (§7.2 step 22): possibly a cloned authenticator.
    case passkeyCounterRegression = 2023
    /// Too many assertions in a row whose signature did not verify with the registered key (for a
    /// passkey protected by a PIN: wrong PINs) locked the passkey; nothing was verified. Sign in
    /// another way, remove it and add it again (docs/passkeys.md, "Wrong signatures").
    case passkeyLocked = 2024
    /// `invalid_grant`: an administrator disabled the account; it cannot sign in or refresh until
    /// it is enabled again. Contact the service's support.
    case accountDisabled = 2025

    // 3xxx — accounts and profile
    /// `invalid_request`: one or more fields are invalid; `error_details` lists them, each with a
    /// ``FieldErrorCode``.
    case validationFailed = 3000
    /// `invalid_request`, 409: another account has this email address (sign-up or email change);
    /// `error_details` marks the field `taken`.
    case emailTaken = 3001
    /// `invalid_request`: only the password failed the password policy (too short or long, the
    /// email or username, or too common); see `error_details`.
    case weakPassword = 3002
    /// `not_found`, 404: no such user.
    case userNotFound = 3003
    /// `invalid_request`: an emailed account code (sign-up, password reset, email change) is wrong,
    /// expired or used up; `remaining_attempts` says how many answers are left.
    case invalidVerificationCode = 3004
    /// `not_found`, 404: no device with this `device_id` is registered to the account.
    case deviceNotFound = 3005
    /// The account has the most devices it may register (``DevicesEndpoint``); remove one
    /// first. HTTP 409.
    case tooManyDevices = 3006
    /// Unlinking this identity would leave the account with no way to sign in (no password, no
    /// other linked provider): set a password first (docs/federation.md).
    case lastSignInMethod = 3007
    /// The credential id is registered already (WebAuthn §7.1 step 26).
    case passkeyAlreadyRegistered = 3008

    // 4xxx — abuse protection
    /// `slow_down`, 429: too many requests that send email or codes (per client address, or per
    /// `auth_session`); wait `Retry-After` seconds.
    case rateLimited = 4000
    /// `proof_of_work_required`, 429: solve the `challenge` in the body and send the same request
    /// again with the solution (docs/abuse-protection.md).
    case proofOfWorkRequired = 4001
    /// The `Sesame-Challenge-Solution` sent was refused (expired, forged, already used, issued
    /// for another request, or a wrong nonce); the answer carries a fresh challenge.
    case invalidChallengeSolution = 4002
    /// `invalid_request`, 429: too many requests to an OAuth endpoint (`/token`, `/revoke`,
    /// `/introspect`, `/device_authorization`) from this address or client; wait `Retry-After`
    /// seconds. An RFC 6749 §5.2 error, since those endpoints' clients know no other (`slow_down`
    /// belongs to device polling, RFC 8628 §3.5).
    case tooManyTokenRequests = 4003

    // 5xxx — server
    /// RFC 6749 §4.1.2.1 `server_error`, 500: an unexpected failure; retry later and quote
    /// `error_id` to support.
    case serverError = 5000
    /// RFC 6749 §4.1.2.1 `temporarily_unavailable`, 503: e.g. the data store is down or an email
    /// could not be sent; retry later.
    case temporarilyUnavailable = 5001

    /// The RFC 6749 §5.2 / OIDC / draft `error` string sent with this code.
    public var error: String {
        switch self {
        case .invalidRequest, .invalidRedirectURI, .pkceRequired, .csrfFailed, .methodNotAllowed,
            .notFound, .invalidRequestObject, .validationFailed, .emailTaken, .weakPassword, .tooManyDevices,
            .lastSignInMethod,
            .requestHeaderFieldsTooLarge,
            .invalidVerificationCode, .unknownFederationProvider, .federationTokenInvalid, .federationAudienceMismatch,
            .federationTokenExpired, .federationClaimMissing, .federationEmailUnverified, .passkeyInvalid,
            .passkeyAlreadyRegistered, .signInExpired, .tooManyTokenRequests:
            "invalid_request"
        case .invalidClient, .unknownClient: "invalid_client"
        case .invalidGrant, .invalidCredentials, .invalidMFACode, .mfaCodeExpired,
            .mfaAttemptsExhausted, .invalidAuthSession, .invalidPIN, .pinRegistrationRevoked, .sessionEndedElsewhere,
            .federationAccountExists, .passkeyChallengeInvalid, .passkeyNotRecognized, .passkeyCounterRegression,
            .passkeyLocked, .accountDisabled:
            "invalid_grant"
        case .unauthorizedClient: "unauthorized_client"
        case .invalidTarget: "invalid_target"
        case .invalidClientMetadata: "invalid_client_metadata"
        case .invalidRedirectURIMetadata: "invalid_redirect_uri"
        case .dpopProofInvalid: "invalid_dpop_proof"
        case .dpopNonceRequired: "use_dpop_nonce"
        case .authorizationPending: "authorization_pending"
        case .slowDown: "slow_down"
        case .expiredToken: "expired_token"
        case .deviceAccessDenied: "access_denied"
        case .unsupportedGrantType: "unsupported_grant_type"
        case .invalidScope: "invalid_scope"
        case .accessDenied, .accountLocked, .emailNotVerified: "access_denied"
        case .unsupportedResponseType: "unsupported_response_type"
        case .loginRequired: "login_required"
        case .consentRequired: "consent_required"
        case .interactionRequired: "interaction_required"
        case .invalidToken: "invalid_token"
        case .insufficientScope, .firstPartyClientRequired, .adminRoleRequired: "insufficient_scope"
        case .unsupportedTokenType: "unsupported_token_type"
        case .requestNotSupported: "request_not_supported"
        case .requestURINotSupported: "request_uri_not_supported"
        case .registrationNotSupported: "registration_not_supported"
        case .insufficientAuthorization, .mfaMethodUnavailable: "insufficient_authorization"
        case .userNotFound, .deviceNotFound: "not_found"
        case .rateLimited: "slow_down"
        case .proofOfWorkRequired, .invalidChallengeSolution: "proof_of_work_required"
        case .serverError: "server_error"
        case .temporarilyUnavailable, .tooManyAttempts: "temporarily_unavailable"
        }
    }

    /// HTTP status for JSON endpoints (RFC 6749 §5.2: 400, or 401 for `invalid_client`).
    public var httpStatus: Int {
        switch self {
        case .invalidClient, .unknownClient, .invalidToken: 401
        case .insufficientScope, .firstPartyClientRequired, .accessDenied, .accountLocked, .emailNotVerified,
            .csrfFailed, .adminRoleRequired:
            403
        case .userNotFound, .deviceNotFound, .notFound: 404
        case .methodNotAllowed: 405
        case .requestHeaderFieldsTooLarge: 431
        case .emailTaken, .tooManyDevices, .lastSignInMethod, .passkeyAlreadyRegistered: 409
        case .rateLimited, .proofOfWorkRequired, .invalidChallengeSolution, .tooManyAttempts, .tooManyTokenRequests: 429
        case .serverError: 500
        case .temporarilyUnavailable: 503
        default: 400
        }
    }

    /// Localization key for `error_user_msg`: `error.` + the snake_case case name
    /// (`invalidMFACode` → `error.invalid_mfa_code`).
    public var messageKey: String { Self.messageKeys[self] ?? Self.makeMessageKey(self) }

    /// Every case's ``messageKey``, made once: the name comes from reflection, which cost an
    /// error answer about 3 µs (issue #50).
    private static let messageKeys: [APIErrorCode: String] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0, makeMessageKey($0)) })

    private static func makeMessageKey(_ code: APIErrorCode) -> String {
        let name = Array(String(describing: code))
        var snake = ""
        for (index, character) in name.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = name[index - 1]
                let next = index + 1 < name.count ? name[index + 1] : nil
                if previous.isLowercase || (previous.isUppercase && next?.isLowercase == true) {
                    snake.append("_")
                }
            }
            snake.append(character)
        }
        return "error." + snake.lowercased()
    }

    /// Developer-facing English description used when a more specific one is not given.
    public var defaultDescription: String {
        switch self {
        case .invalidRequest: "The request is missing a parameter or has an invalid one."
        case .invalidClient: "Client authentication failed: check client_id and client secret."
        case .invalidGrant: "The grant is invalid, expired, revoked or was issued to another client."
        case .unauthorizedClient: "This client may not use this grant type."
        case .unsupportedGrantType: "The grant type is not supported."
        case .invalidScope: "The requested scope is invalid or not allowed for this client."
        case .accessDenied: "The user or server denied the request."
        case .unsupportedResponseType: "Only response_type=code is supported."
        case .loginRequired: "The user must sign in; prompt=none cannot be satisfied."
        case .consentRequired: "The user must consent; prompt=none cannot be satisfied."
        case .interactionRequired: "User interaction is required."
        case .invalidToken: "The access token is missing, expired, revoked or malformed."
        case .insufficientScope: "The access token lacks the scope this resource needs."
        case .invalidRedirectURI: "redirect_uri does not exactly match a registered redirect URI."
        case .pkceRequired: "PKCE with code_challenge_method=S256 is required."
        case .unsupportedTokenType: "The token type is not supported."
        case .unknownClient: "The client_id is not registered."
        case .csrfFailed: "The form expired or was not submitted from the login page. Try again."
        case .methodNotAllowed: "The HTTP method is not allowed for this endpoint."
        case .notFound: "No such resource."
        case .invalidRequestObject: "Request objects are not supported."
        case .firstPartyClientRequired:
            "Only first-party clients may use this API; register the client as first-party or use /userinfo."
        case .requestNotSupported: "The request parameter (Request Object) is not supported."
        case .requestURINotSupported: "The request_uri parameter is not supported."
        case .registrationNotSupported: "The registration parameter is not supported."
        case .invalidCredentials: "The username or password is incorrect."
        case .accountLocked: "The account is temporarily locked after too many failed attempts."
        case .insufficientAuthorization: "Additional authentication (MFA) is required."
        case .invalidMFACode: "The verification code is incorrect."
        case .mfaCodeExpired: "The verification code has expired; request a new one."
        case .mfaAttemptsExhausted: "Too many wrong codes; start the sign-in again."
        case .mfaMethodUnavailable: "That verification method is not available for this user."
        case .invalidAuthSession: "The auth_session is unknown or expired; start again."
        case .invalidPIN: "The PIN is wrong; remaining_attempts says how many tries are left."
        case .pinRegistrationRevoked: "The PIN registration is unknown or revoked; sign in again and register a new PIN."
        case .sessionEndedElsewhere:
            "The session was ended for every app on this device (sign out everywhere); forget the account and sign in again."
        case .unknownFederationProvider: "subject_issuer names no registered federation provider."
        case .federationTokenInvalid: "The provider's token is not valid: see error_description for the rule."
        case .federationAudienceMismatch: "The provider's token was issued for another app."
        case .federationTokenExpired: "The provider's token has expired; sign in with the provider again."
        case .federationClaimMissing: "The provider's token lacks a claim this provider's registration requires."
        case .federationEmailUnverified: "The provider has not verified the email address."
        case .federationAccountExists:
            "An account with this email exists and this provider may not link to it; sign in to that account first."
        case .passkeyChallengeInvalid:
            "The passkey challenge is unknown, expired or used already; ask for new options and try again."
        case .passkeyNotRecognized: "This passkey is not registered for the account; use another passkey or sign in another way."
        case .passkeyInvalid: "The passkey's answer failed a WebAuthn check; ceremony_step says which."
        case .passkeyCounterRegression:
            "The passkey's signature counter went backwards, so it may have been copied; it was refused. Sign in another way and remove it."
        case .passkeyAlreadyRegistered: "This passkey is registered already."
        case .passkeyLocked:
            "This passkey is locked after too many failed attempts. Sign in another way, then remove it and add it again."
        case .invalidTarget:
            "The audience or resource is not one this server issues tokens for, or not one this client may ask for (RFC 8707)."
        case .invalidClientMetadata: "A setting of the client registration is not allowed here; the description names it."
        case .invalidRedirectURIMetadata: "A redirect URI of the registration is refused; use https or a loopback http URI."
        case .dpopProofInvalid: "The DPoP proof is missing, invalid, replayed or signed by another key than the bound one."
        case .dpopNonceRequired: "Retry with a DPoP proof carrying the nonce from the DPoP-Nonce header."
        case .authorizationPending: "The user has not approved the device yet; poll again after the interval."
        case .slowDown: "The device polled too fast; add 5 seconds to the interval and keep polling."
        case .expiredToken: "The device code has expired or was used; start a new device authorization."
        case .deviceAccessDenied: "The user denied the device's request; stop polling."
        case .adminRoleRequired:
            "The admin API needs an operator role that allows this (admin, helpdesk or auditor); ask an administrator."
        case .accountDisabled: "An administrator disabled this account; contact support."
        case .signInExpired:
            "This sign-in page has expired, was completed already, or belongs to another browser; go back to the app and sign in again."
        case .emailNotVerified: "The email address has not been verified yet."
        case .tooManyAttempts:
            "Too many failed password attempts for this login name or from this address; the password was not checked. Wait Retry-After seconds, then try again."
        case .validationFailed: "One or more fields are invalid; see error_details."
        case .emailTaken: "An account with this email address already exists."
        case .weakPassword: "The password does not meet the password policy."
        case .userNotFound: "No such user."
        case .invalidVerificationCode: "The verification code is incorrect or expired."
        case .deviceNotFound: "No such device."
        case .tooManyDevices: "The account has the most devices it may register; remove one first."
        case .lastSignInMethod: "This is the account's only way to sign in; set a password first."
        case .requestHeaderFieldsTooLarge: "The request line and headers are too large or too many."
        case .rateLimited: "Too many requests; wait and retry."
        case .tooManyTokenRequests: "Too many requests to this endpoint; wait Retry-After seconds and retry."
        case .proofOfWorkRequired: "Solve the proof-of-work challenge and retry."
        case .invalidChallengeSolution: "The challenge solution was refused; solve the new challenge and retry."
        case .serverError: "The server hit an unexpected error. Retry later; quote error_id."
        case .temporarilyUnavailable: "The server is temporarily unavailable. Retry later."
        }
    }
}
