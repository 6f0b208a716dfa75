import Foundation

extension FirstPartyCode {
    /// Issues a code for `authentication` with the first-party slice's store, lifetime and clock.
    static func issue(
        services: FirstPartyServices, clientID: String, scope: String, codeChallenge: String,
        authentication: AuthenticationContext, reauthentication: Bool
    ) async throws -> String {
        try await issue(
            store: services.store, lifetime: services.authorizationCodeLifetime, now: services.now(), clientID: clientID,
            scope: scope, codeChallenge: codeChallenge, authentication: authentication,
            reauthentication: reauthentication)
    }
}
