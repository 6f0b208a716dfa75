import Foundation
import Hummingbird
import SesameProtocol

/// Authenticates a request by its RFC 6750 §2.1 `Authorization: Bearer` access token, for
/// `/userinfo`, the account APIs under `/api/` and step-up at `/authorize-challenge`.
///
/// The token must be one this server issued (RFC 9068 `at+jwt`), unexpired, not revoked, and
/// its user must still exist. Tokens are never accepted from a query string or form body
/// (RFC 9700 §4.3.2).
struct BearerAuthentication: Sendable {
    let services: ServerServices

    /// The verified token claims and the user they name; throws `invalid_token` (401 with
    /// `WWW-Authenticate`) otherwise.
    func authenticate(
        _ request: Request, context: SesameRequestContext
    ) async throws -> (claims: AccessTokenClaims, user: UserRecord) {
        guard let token = Self.bearerToken(request) else {
            throw Self.invalidToken("Send the access token in an Authorization: Bearer header.")
        }
        guard let claims = try await services.accessTokenVerifier.activeClaims(token) else {
            throw Self.invalidToken("The access token is invalid, expired or revoked.")
        }
        context.annotations.record(clientID: claims.clientID)
        guard let user = try await services.store.user(id: claims.sub) else {
            throw Self.invalidToken("The token's user no longer exists.")
        }
        return (claims, user)
    }

    /// RFC 6750 §2.1 `Authorization: Bearer <token>`.
    static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// RFC 6750 §3: 401 with `WWW-Authenticate: Bearer error="invalid_token"`.
    static func invalidToken(_ description: String) -> EndpointFailure {
        EndpointFailure(
            .invalidToken, description, status: .unauthorized,
            headers: [.wwwAuthenticate: #"Bearer realm="sesame", error="invalid_token""#])
    }
}
