import Foundation
import SesameProtocol
import SesameStore

/// Authorization requests held on the server while a browser signs in (RFC 9126 §4, RFC 9449
/// §10, FAPI 2.0 §5.3.2.2: the request a client made, or pushed, is the request the code is
/// issued for).
///
/// `/authorize` validates a request (or takes a pushed one, as pushed) and, when a hosted step
/// must follow, ``hold(_:authorization:client:pushed:browserBinding:)`` stores it and returns a
/// ``HeldAuthorization`` whose ``HeldAuthorization/reference`` is all that the pages carry: the
/// login form, the second factor, the passkey, "Continue with …" a provider, the sign-up and
/// password-reset detours. Each step finds the request again with
/// ``resume(reference:browserBinding:)``; no parameter the browser sends back is read as part
/// of the request. The row is
/// - found by the SHA-256 of a random 256-bit reference (``SecretDigest``),
/// - bound to the browser's pre-session cookie (a reference copied to another browser finds
///   nothing),
/// - shared by every server process (the store),
/// - good for ``lifetime`` seconds (30 minutes by default, Keycloak's login timeout),
/// - and completed once: ``complete(_:)`` is `true` for exactly one caller, which issues the code.
package struct PendingAuthorizations: Sendable {
    /// The default of ``lifetime``.
    package static let defaultLifetime: TimeInterval = 30 * 60
    /// The name of the form field and query parameter that carries the reference.
    package static let referenceField = "authorization_ref"

    let store: any PendingAuthorizationStore
    let validator: AuthorizationRequestValidator
    /// How long a held request waits for the user, in seconds.
    package let lifetime: TimeInterval
    let now: @Sendable () -> Date

    package init(
        store: any PendingAuthorizationStore, validator: AuthorizationRequestValidator,
        lifetime: TimeInterval = defaultLifetime, now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.validator = validator
        self.lifetime = max(1, lifetime)
        self.now = now
    }

    /// Holds `parameters`, which ``AuthorizationRequestValidator`` accepted as `authorization`
    /// for `client`, for the browser whose pre-session digest is `browserBinding`. A request
    /// that came from `/authorize`'s query keeps only the parameters an authorization request
    /// has; a pushed one is kept as pushed.
    package func hold(
        _ parameters: [String: String], authorization: AuthorizationRequest, client: ClientRecord, pushed: Bool,
        browserBinding: String
    ) async throws -> HeldAuthorization {
        let kept = pushed ? parameters : parameters.filter { AuthorizationRequest.parameterNames.contains($0.key) }
        let reference = SecureRandom.token(byteCount: 32)
        try await store.insertPendingAuthorization(
            PendingAuthorizationRecord(
                digest: SecretDigest.of(reference), browserBinding: browserBinding, clientID: client.clientID,
                parameters: kept, pushed: pushed, expiresAt: now().addingTimeInterval(lifetime)))
        return HeldAuthorization(
            reference: reference, browserBinding: browserBinding, authorization: authorization, client: client,
            pushed: pushed)
    }

    /// The request held under `reference` for this browser: `nil` when there is no reference,
    /// no pre-session, or no such live request for this browser (never issued, expired,
    /// completed, or another browser's). The stored parameters are validated again, so a client
    /// whose registration changed meanwhile (a redirect URI removed, the client deleted) is
    /// refused as `/authorize` would refuse it now.
    package func resume(reference: String?, browserBinding: String?) async throws -> HeldAuthorization? {
        guard let reference, let browserBinding, Self.isWellFormed(reference) else { return nil }
        guard
            let record = try await store.pendingAuthorization(
                digest: SecretDigest.of(reference), browserBinding: browserBinding, now: now())
        else { return nil }
        let (authorization, client) = try await validator.validate(record.parameters)
        return HeldAuthorization(
            reference: reference, browserBinding: browserBinding, authorization: authorization, client: client,
            pushed: record.pushed)
    }

    /// Completes `held` before its code is issued: `true` for exactly one caller across every
    /// process; `false` when it was completed already or has expired since it was resumed.
    package func complete(_ held: HeldAuthorization) async throws -> Bool {
        try await store.completePendingAuthorization(
            digest: SecretDigest.of(held.reference), browserBinding: held.browserBinding, now: now())
    }

    /// A reference is 43 base64url characters (256 random bits); anything else is not looked up.
    static func isWellFormed(_ reference: String) -> Bool {
        reference.utf8.count == 43 && reference.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F
        }
    }
}

/// An authorization request held on the server for one browser (``PendingAuthorizations``):
/// the validated request and its client, and the reference the pages carry instead of it.
package struct HeldAuthorization: Sendable {
    /// The opaque value the pages carry (``PendingAuthorizations/referenceField``).
    package let reference: String
    /// The digest of the pre-session the request is bound to.
    package let browserBinding: String
    package let authorization: AuthorizationRequest
    package let client: ClientRecord
    /// Whether the request came through `/par` (RFC 9126).
    package let pushed: Bool

    /// `authorization_ref=…`, for links to the pages that continue this sign-in.
    package var query: String {
        FormURLEncoding.encode([(PendingAuthorizations.referenceField, reference)])
    }
}
