import Foundation
import Hummingbird
import SesameProtocol

/// PIN-protected device sessions (SPEC §1.6, docs/pin-devices.md). The server never sees a PIN:
/// a device registers an Ed25519 public key whose private half it keeps sealed under its PIN,
/// and unlocks by signing a single-use nonce (`/token`, ``PINUnlockGrant``).
/// - `GET /api/pin/policy?client_id=` → ``PINPolicy`` (no authentication: a locked app reads it);
/// - `POST /api/pin/registrations` ``PINRegistrationRequest`` (bearer, first-party, signed in
///   within ``recentSignIn``; otherwise 400 `insufficient_authorization`: re-authenticate) → 201
///   ``PINRegistration``;
/// - `GET /api/pin/registrations` → ``PINRegistrationList`` (the user's "PIN devices");
/// - `DELETE /api/pin/registrations/{id}` → 204: the registration and every token issued
///   through it are revoked; 404 `pin_registration_revoked` (2011) when it is not the user's;
/// - `POST /api/pin/nonce` ``PINNonceRequest`` → ``PINNonce``; 404 `pin_registration_revoked`
///   (2011) for an unknown or revoked registration.
struct PINEndpoints: Sendable {
    let provider: Provider
    let bearer: BearerAuthentication

    /// How recent the sign-in behind a registration must be.
    static let recentSignIn: TimeInterval = 300
    /// Registrations one account may have (one per device and app).
    static let maximumRegistrations = 20
    static let maximumLabelLength = 100

    func policy(_ request: Request, context: SesameRequestContext) async throws -> Response {
        guard let clientID = FormRequest.query(of: request)?["client_id"], !clientID.isEmpty else {
            throw EndpointFailure(.invalidRequest, "client_id is required in the query.")
        }
        guard try await provider.pin.store.client(id: clientID) != nil else {
            throw EndpointFailure(.unknownClient, "client_id is not registered with this server.")
        }
        return JSONResponse.make(try await provider.pin.policy(clientID: clientID))
    }

    func register(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (claims, user) = try await bearer.authenticateFirstParty(request, context: context)
        let now = provider.pin.now()
        guard let authTime = claims.authTime, now.timeIntervalSince1970 - Double(authTime) <= Self.recentSignIn else {
            throw EndpointFailure(
                .insufficientAuthorization,
                "Registering a PIN needs a sign-in in the last \(Int(Self.recentSignIn / 60)) minutes; re-authenticate (max_age=0) and retry with the new token.")
        }
        let validation = AccountValidation(
            localizer: provider.localizer, locales: AccountValidation.locales(request: request, preferred: user.claims.locale))
        let input = try await JSONRequest.decode(
            PINRegistrationRequest.self, from: request, context: context, required: ["public_key"], validation: validation
        ).value
        var violations: [FieldViolation] = []
        let key = Base64URL.decode(input.publicKey)
        if key?.count != 32 { violations.append(FieldViolation(field: "public_key", code: FieldErrorCode.invalidFormat)) }
        let label = input.label?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let label, label.count > Self.maximumLabelLength {
            violations.append(
                FieldViolation(field: "label", code: FieldErrorCode.tooLong, arguments: ["max": "\(Self.maximumLabelLength)"]))
        }
        guard violations.isEmpty, let key else { throw validation.failure(violations) }
        guard try await provider.pin.pinStore.pinRegistrations(userID: user.id).count < Self.maximumRegistrations else {
            throw EndpointFailure(
                .tooManyDevices,
                "The account already has \(Self.maximumRegistrations) PIN registrations; remove one (DELETE /api/pin/registrations/{id}) first.")
        }
        let record = PINRegistrationRecord(
            userID: user.id, clientID: claims.clientID, label: label.flatMap { $0.isEmpty ? nil : $0 }, publicKey: key,
            createdAt: now)
        try await provider.pin.pinStore.insertPINRegistration(record)
        provider.pin.audit.record(.pinRegistered, context: context, clientID: claims.clientID, userID: user.id, detail: ["registration": record.id])
        context.annotations.record(outcome: "pin_registered")
        return JSONResponse.make(try await view(record), status: .created)
    }

    func list(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer.authenticateFirstParty(request, context: context)
        var views: [PINRegistration] = []
        for record in try await provider.pin.pinStore.pinRegistrations(userID: user.id) { views.append(try await view(record)) }
        return JSONResponse.make(PINRegistrationList(registrations: views))
    }

    func remove(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (claims, user) = try await bearer.authenticateFirstParty(request, context: context)
        let id = context.parameters.get("registration_id") ?? ""
        guard let record = try await provider.pin.pinStore.pinRegistration(id: id), record.userID == user.id else {
            throw EndpointFailure(.pinRegistrationRevoked, "No PIN registration of this account has that id.", status: .notFound)
        }
        try await provider.pin.revoke(record)
        provider.pin.audit.record(
            .pinRemoved, reason: "removed", context: context, clientID: claims.clientID, userID: user.id,
            detail: ["registration": record.id])
        context.annotations.record(outcome: "pin_removed")
        return JSONResponse.noContent()
    }

    func nonce(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let validation = AccountValidation(localizer: provider.localizer, locales: LocalePreference.from(request: request))
        let input = try await JSONRequest.decode(
            PINNonceRequest.self, from: request, context: context, required: ["client_id", "registration_id"],
            validation: validation
        ).value
        context.annotations.record(clientID: input.clientID)
        guard let record = try await provider.pin.registration(input.registrationID, clientID: input.clientID) else {
            throw EndpointFailure(
                .pinRegistrationRevoked, "The PIN registration is unknown or revoked; sign in again and register the PIN anew.",
                status: .notFound)
        }
        return JSONResponse.make(provider.pin.nonces.issue(registrationID: record.id))
    }

    private func view(_ record: PINRegistrationRecord) async throws -> PINRegistration {
        PINRegistration(
            id: record.id, label: record.label, clientID: record.clientID,
            createdAt: Int(record.createdAt.timeIntervalSince1970),
            lastUsedAt: record.lastUsedAt.map { Int($0.timeIntervalSince1970) }, failures: record.failures,
            policy: try await provider.pin.policy(clientID: record.clientID))
    }
}
