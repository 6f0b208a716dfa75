import Foundation
import SesameProtocol
import SesameStore

/// Finds or makes the local account of a provider's subject (docs/federation.md). The link is
/// (provider, `sub`), never an email alone:
/// - a linked subject signs in to its account;
/// - otherwise, a local account with the same email is linked only when both emails are
///   verified and the operator trusts the provider for it (``FederationProviderRecord/linkByEmail``);
///   an unverified email never links to, or takes over, an existing account;
/// - otherwise a new account is made, the profile claims copied (name, email, picture, locale),
///   with no password: it signs in through the provider.
package struct FederatedAccounts: Sendable {
    package let store: any IdentityStore
    package let federation: any FederationStore
    package let audit: AuditLog
    package let now: @Sendable () -> Date

    package init(
        store: any IdentityStore,
        federation: any FederationStore,
        audit: AuditLog,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.federation = federation
        self.audit = audit
        self.now = now
    }

    package enum Outcome: Sendable, Equatable {
        case signedIn
        case linked
        case created
    }

    /// The account, and how it was reached. Two first uses of one subject at once (two
    /// processes, a double tap) meet at the link's unique key, which a new account claims before
    /// it is created: the loser waits for the winner's account and signs in to it.
    package func account(
        for claims: FederatedClaims, provider: FederationProviderRecord, origin: RequestOrigin?
    ) async throws -> (UserRecord, Outcome) {
        // The link's key: an empty or oversized `sub` (OIDC Core §2: 1–255 ASCII characters)
        // from any provider kind never links.
        guard !claims.sub.isEmpty, claims.sub.utf8.count <= 255 else {
            throw FederationRefusal.invalidToken(rule: "sub", "sub must be 1 to 255 characters (OpenID Connect Core section 2)")
        }
        for _ in 0..<Self.retries {
            do {
                return try await resolve(claims, provider: provider, origin: origin)
            } catch is InProgress {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        throw StoreError.unavailable(reason: "another sign-in of this identity did not finish its account in time")
    }

    package static let retries = 30
    /// A link younger than this whose account is missing is still being made.
    package static let creationWindow: TimeInterval = 10

    /// Another request is making this subject's account right now.
    package struct InProgress: Error {}

    private func resolve(
        _ claims: FederatedClaims, provider: FederationProviderRecord, origin: RequestOrigin?
    ) async throws -> (UserRecord, Outcome) {
        if let identity = try await federation.federatedIdentity(providerID: provider.id, subject: claims.sub) {
            if let user = try await store.user(id: identity.userID) { return (user, .signedIn) }
            if now().timeIntervalSince(identity.linkedAt) < Self.creationWindow { throw InProgress() }
            try await federation.unlinkFederatedIdentity(providerID: provider.id, subject: claims.sub)
        }
        // The provider's email, normalized and validated exactly as a local one; an invalid one
        // (`" alice@example.com"` is valid once trimmed, `"bob"` never) counts as absent.
        guard let email = EmailAddress.normalized(claims.email) else {
            throw FederationRefusal.missingClaim(
                claims.email == nil
                    ? "the token has no email, which a new account needs"
                    : "the token's email is not a valid address, which a new account needs")
        }
        let verified = claims.emailVerified == true
        if let existing = try await store.user(email: email) {
            // A concurrent first use of this subject may have made this account since the lookup
            // above: its link exists now, and the next try signs in through it.
            if try await federation.federatedIdentity(providerID: provider.id, subject: claims.sub) != nil {
                throw InProgress()
            }
            try checkLinkable(existing, verified: verified, provider: provider, email: email)
            do {
                try await link(provider: provider, claims: claims, userID: existing.id)
            } catch StoreError.conflict {
                throw InProgress()
            }
            audit.record(.federationLinked, origin: origin, userID: existing.id, detail: ["provider": provider.id])
            return (existing, .linked)
        }
        if let other = try await store.user(login: email) {
            // An account with this email appeared since the lookup above (a concurrent first use
            // of this subject made it): try again, and find its link.
            if EmailAddress.canonical(other.email) == email { throw InProgress() }
            // Another account's username is this address: a second account with it as email
            // would make the login name ambiguous.
            throw FederationRefusal.accountExists(
                "an account uses this email as its username; sign in to it and link the provider from there")
        }
        guard verified || provider.allowUnverifiedEmail else {
            throw FederationRefusal.unverifiedEmail("the provider has not verified the email address; this provider requires it")
        }
        // Claim the link first: a concurrent first use of the same subject waits for this account.
        let id = SecureRandom.uuid()
        do {
            try await link(provider: provider, claims: claims, userID: id)
        } catch StoreError.conflict {
            throw InProgress()
        }
        do {
            let user = try await create(id: id, email: email, verified: verified, claims: claims)
            audit.record(.federationAccountCreated, origin: origin, userID: user.id, detail: ["provider": provider.id])
            return (user, .created)
        } catch {
            _ = try? await federation.unlinkFederatedIdentity(providerID: provider.id, subject: claims.sub)
            if case StoreError.conflict(let field) = error, field == "email" { throw InProgress() }
            throw error
        }
    }

    /// An existing account with the token's email: linked only when both emails are verified and
    /// the provider is trusted for it.
    private func checkLinkable(
        _ existing: UserRecord, verified: Bool, provider: FederationProviderRecord, email: String
    ) throws {
        guard verified else {
            throw FederationRefusal.unverifiedEmail(
                "the provider has not verified \(email), which is an existing account's email; it is never linked")
        }
        guard existing.emailVerified, provider.linkByEmail else {
            throw FederationRefusal.accountExists(
                "an account with this email exists; sign in to it with its password (this provider is not trusted to link by email)")
        }
    }

    private func link(provider: FederationProviderRecord, claims: FederatedClaims, userID: String) async throws {
        try await federation.linkFederatedIdentity(
            FederatedIdentityRecord(
                providerID: provider.id, subject: claims.sub, userID: userID, email: EmailAddress.normalized(claims.email),
                linkedAt: now()))
    }

    /// A passwordless account; the username is the email, or the email with a random suffix
    /// when that is someone's username already.
    private func create(id: String, email: String, verified: Bool, claims: FederatedClaims) async throws -> UserRecord {
        var profile = StandardClaims(sub: "")
        profile.name = claims.name
        profile.givenName = claims.givenName
        profile.familyName = claims.familyName
        profile.picture = claims.picture
        profile.locale = claims.locale
        for attempt in 0..<3 {
            let username = attempt == 0 ? email : email + "+" + SecureRandom.token(byteCount: 4)
            let user = UserRecord(
                id: id, username: username, email: email, emailVerified: verified, claims: profile, createdAt: now(),
                updatedAt: now())
            do {
                try await store.createUser(user)
                return user
            } catch StoreError.conflict(let field) where field == "username" && attempt < 2 {
                continue
            }
        }
        throw StoreError.conflict(field: "username")
    }
}
