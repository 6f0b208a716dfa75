import Foundation
import JWTKit
import SesameProtocol
import SesameStore

/// `private_key_jwt` client authentication (RFC 7523 §2.2 and §3, OIDC Core §9): the client
/// proves itself with a JWT signed by a key whose public half the operator registered
/// (``ClientRecord/jwks``). Each rule that fails is named in the `invalid_client` answer:
/// 1. `client_assertion_type` is `urn:ietf:params:oauth:client-assertion-type:jwt-bearer`;
/// 2. the signature verifies with one of the client's keys (the header's `kid`), by an
///    asymmetric algorithm: never `none`, never an HMAC (the key set holds public keys only);
/// 3. `iss` and `sub` are the client id (§3 items 1–2);
/// 4. `aud` holds this issuer or its token endpoint URL (§3 item 3);
/// 5. `exp` is in the future and at most 10 minutes away, `iat` not in the future (with 60 s
///    leeway) (§3 items 4, 6);
/// 6. `jti` is present and was not used by the client before (§3 item 7), across every process
///    sharing the store.
package struct ClientAssertionVerifier: Sendable {
    package static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    package static let leeway: TimeInterval = 60
    package static let maximumLifetime: TimeInterval = 600

    package let issuer: String
    package let replay: (any DeviceSessionStore)?
    package let now: @Sendable () -> Date

    package init(issuer: String, replay: (any DeviceSessionStore)?, now: @escaping @Sendable () -> Date) {
        self.issuer = issuer
        self.replay = replay
        self.now = now
    }

    /// `exp` and `iat` are NumericDates (RFC 7519 §2) read without throwing, so that a value
    /// out of range is refused by name after the signature check, not reported as a bad
    /// signature (JWTKit decodes the payload first).
    package struct Claims: JWTPayload {
        package var iss: String
        package var sub: String
        package var aud: AudienceClaim
        package var exp: Result<NumericDate, NumericDateError>?
        package var iat: Result<NumericDate, NumericDateError>?
        package var jti: String?

        package enum CodingKeys: String, CodingKey { case iss, sub, aud, exp, iat, jti }

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            iss = try c.decode(String.self, forKey: .iss)
            sub = try c.decode(String.self, forKey: .sub)
            aud = try c.decode(AudienceClaim.self, forKey: .aud)
            exp = c.numericDateIfPresent(forKey: .exp)
            iat = c.numericDateIfPresent(forKey: .iat)
            jti = try c.decodeIfPresent(String.self, forKey: .jti)
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(iss, forKey: .iss)
            try c.encode(sub, forKey: .sub)
            try c.encode(aud, forKey: .aud)
            try c.encodeIfPresent(try exp?.get(), forKey: .exp)
            try c.encodeIfPresent(try iat?.get(), forKey: .iat)
            try c.encodeIfPresent(jti, forKey: .jti)
        }

        package func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The client id the assertion claims (`iss`), read before its signature is checked, to
    /// find the client's keys. `nil` when it is not a JWT with one.
    package static func claimedClientID(_ assertion: String) -> String? {
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else { return nil }
        return object["iss"] as? String
    }

    /// The assertion's `aud` when it is one string (not an array).
    static func audienceString(_ assertion: String) -> String? {
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else { return nil }
        return object["aud"] as? String
    }

    /// Throws `invalid_client` naming the rule that failed.
    package func verify(_ assertion: String, client: ClientRecord) async throws {
        func refuse(_ rule: String) -> ProviderFailure {
            ProviderFailure(.invalidClient, "client_assertion refused: \(rule).")
        }
        guard let jwks = client.jwks else { throw refuse("the client has no registered keys (jwks)") }
        guard assertion.utf8.count <= 8_192 else { throw refuse("it is too long") }
        let keys = JWTKeyCollection()
        do {
            try await keys.add(jwksJSON: jwks)
        } catch {
            throw refuse("the client's registered keys cannot be read; register a valid JWK Set")
        }
        let claims: Claims
        do {
            claims = try await keys.verify(assertion, as: Claims.self)
        } catch {
            throw refuse("the signature does not verify with the client's registered keys")
        }
        guard claims.iss == client.clientID, claims.sub == client.clientID else {
            throw refuse("iss and sub must both be the client id")
        }
        if client.securityProfile == .fapi2 {
            // FAPI 2.0 §5.3.2.1 item 8: the issuer identifier, as a string, and nothing else.
            guard Self.audienceString(assertion) == issuer else {
                throw refuse("aud must be the issuer identifier \(issuer) as a single string (FAPI 2.0 section 5.3.2.1)")
            }
        }
        let audiences = [issuer, issuer + "/token"]
        guard claims.aud.value.contains(where: audiences.contains) else {
            throw refuse("aud must be \(issuer)/token or \(issuer)")
        }
        func numericDate(_ claim: Result<NumericDate, NumericDateError>) throws -> TimeInterval {
            switch claim {
            case .success(let date): return date.secondsSince1970
            case .failure(let error): throw refuse(error.description)
            }
        }
        guard let expClaim = claims.exp else { throw refuse("exp is required") }
        let exp = try numericDate(expClaim)
        let now = now().timeIntervalSince1970
        guard exp + Self.leeway > now else { throw refuse("it has expired (exp)") }
        guard exp - now <= Self.maximumLifetime else {
            throw refuse("exp is more than 10 minutes away; sign short-lived assertions")
        }
        if let iat = try claims.iat.map(numericDate), iat > now + Self.leeway {
            throw refuse("iat is in the future")
        }
        guard let jti = claims.jti, !jti.isEmpty, jti.utf8.count <= 256 else { throw refuse("jti is required") }
        if let replay {
            let keepUntil = Date(timeIntervalSince1970: exp + Self.leeway)
            guard try await replay.recordClientAssertion(clientID: client.clientID, jti: jti, expiresAt: keepUntil) else {
                throw refuse("its jti was already used (replay)")
            }
        }
    }
}
