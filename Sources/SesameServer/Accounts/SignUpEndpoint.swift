import Foundation
import Hummingbird
import SesameProtocol

/// Self-service sign-up (SPEC §1.8; issue #5 contract):
/// - `POST /api/signup` ``SignUpRequest`` → 201 ``SignUpResponse``; an `email_verification`
///   code goes to the address. The account starts with `email_verified: false` and can sign in
///   at once (verification is not a sign-in precondition).
/// - `POST /api/signup/confirm` ``EmailVerificationRequest`` → 200 ``EmailVerificationStatus``.
struct SignUpEndpoint: Sendable {
    let services: ServerServices

    func signUp(_ request: Request, context: SesameRequestContext) async throws -> Response {
        var validation = AccountValidation(request: request, services: services)
        let body = try await JSONRequest.decode(
            SignUpRequest.self, from: request, context: context,
            required: ["client_id", "email", "password"], validation: validation)
        let input = body.value
        validation = AccountValidation(
            localizer: services.localizer,
            locales: AccountValidation.locales(request: request, preferred: input.profile.locale))
        guard try await services.store.client(id: input.clientID) != nil else {
            throw EndpointFailure(.unknownClient, "client_id is not registered with this server.")
        }
        context.annotations.record(clientID: input.clientID)

        let email = input.email.trimmingCharacters(in: .whitespaces).lowercased()
        let username = (input.username ?? email).trimmingCharacters(in: .whitespaces).lowercased()
        var violations = AccountValidation.readOnlyMembers(in: body.members, allowing: ["email"])
        violations += [validation.email(email, field: "email")].compactMap { $0 }
        if input.username != nil {
            violations += [validation.username(username, field: "username")].compactMap { $0 }
        }
        violations += ProfileValidation.violations(of: input.profile)
        violations += validation.password(input.password, field: "password", email: email, username: username)
        if !violations.isEmpty { throw validation.failure(violations) }

        // `user(login:)` matches usernames and emails, so neither may collide with the other.
        if try await services.store.user(login: email) != nil { throw validation.emailTaken(field: "email") }
        if username != email, try await services.store.user(login: username) != nil {
            throw validation.failure([FieldViolation(field: "username", code: FieldErrorCode.taken)])
        }

        let now = services.now()
        var claims = ProfileValidation.apply(input.profile, to: StandardClaims(sub: ""))
        claims.updatedAt = Int(now.timeIntervalSince1970)
        let user = UserRecord(
            username: username, email: email, emailVerified: false,
            passwordHash: try await services.credentials.hashPassword(input.password), claims: claims,
            createdAt: now, updatedAt: now)
        do {
            try await services.store.createUser(user)
        } catch StoreError.conflict(let field) {
            // A concurrent sign-up won the race after the checks above.
            if field == "email" { throw validation.emailTaken(field: "email") }
            throw validation.failure([FieldViolation(field: "username", code: FieldErrorCode.taken)])
        }
        do {
            try await VerificationCodes(services: services)
                .issue(.emailVerification, for: user, to: email, locales: validation.locales)
        } catch {
            // Without the code the account could never be verified: undo the sign-up.
            _ = try? await services.store.removeUser(id: user.id)
            throw error
        }
        context.annotations.record(outcome: "signed_up")
        return JSONResponse.make(
            SignUpResponse(sub: user.id, email: email, emailVerified: false), status: .created)
    }

    func confirm(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let validation = AccountValidation(request: request, services: services)
        let input = try await JSONRequest.decode(
            EmailVerificationRequest.self, from: request, context: context, required: ["email", "code"],
            validation: validation
        ).value
        let email = input.email.trimmingCharacters(in: .whitespaces).lowercased()
        let user = try await services.store.user(login: email).flatMap { $0.email == email ? $0 : nil }
        let record = try await VerificationCodes(services: services)
            .redeem(.emailVerification, userID: user?.id, code: input.code, validation: validation)
        guard var user, record.target == user.email else {
            throw EndpointFailure(
                .invalidVerificationCode, "The code was sent to another address; request a new code.")
        }
        user.emailVerified = true
        user.updatedAt = services.now()
        try await services.store.updateUser(user)
        context.annotations.record(outcome: "email_verified")
        return JSONResponse.make(EmailVerificationStatus(email: user.email, emailVerified: true))
    }
}
