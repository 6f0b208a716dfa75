import Foundation
import JWTKit
import SesameProtocol
import SesameStore

/// The claims Sesame reads from a provider's ID token (OIDC Core §2, §5.1). `email_verified`
/// is accepted as a JSON boolean or, as Apple sends it, the string `"true"`/`"false"`.
///
/// `exp` and `iat` are NumericDates (RFC 7519 §2) read without throwing: a value out of
/// ``NumericDate``'s range is kept as its ``NumericDateError`` for ``FederatedTokenValidator``
/// to refuse by name once the signature has been checked (JWTKit decodes the payload first and
/// would report any decoding error as a bad signature).
package struct FederatedClaims: JWTPayload {
    package var iss: String
    package var sub: String
    package var aud: AudienceClaim
    package var azp: String?
    /// `nil` when the token has none.
    package var exp: Result<NumericDate, NumericDateError>?
    package var iat: Result<NumericDate, NumericDateError>?
    package var nonce: String?
    package var email: String?
    package var emailVerified: Bool?
    package var name: String?
    package var givenName: String?
    package var familyName: String?
    package var picture: String?
    package var locale: String?
    /// Every claim, for the provider's required claim.
    package var present: Set<String> = []

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case iss, sub, aud, azp, exp, iat, nonce, email, name, picture, locale
        case emailVerified = "email_verified"
        case givenName = "given_name"
        case familyName = "family_name"
    }

    package struct AnyKey: CodingKey {
        package var stringValue: String
        package var intValue: Int? { nil }
        package init(stringValue: String) { self.stringValue = stringValue }
        package init?(intValue: Int) { nil }
    }

    /// Claims vouched for by a provider's API rather than a signed token (Facebook).
    package init(iss: String, sub: String, audience: String, email: String?, emailVerified: Bool, name: String?, picture: String?) {
        self.iss = iss
        self.sub = sub
        aud = AudienceClaim(value: [audience])
        exp = .success(NumericDate(clamping: .distantFuture))
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.picture = picture
        present = Set(["sub"] + (email == nil ? [] : ["email"]) + (name == nil ? [] : ["name"]))
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        iss = try c.decode(String.self, forKey: .iss)
        sub = try c.decode(String.self, forKey: .sub)
        aud = try c.decode(AudienceClaim.self, forKey: .aud)
        azp = try c.decodeIfPresent(String.self, forKey: .azp)
        exp = c.numericDateIfPresent(forKey: .exp)
        iat = c.numericDateIfPresent(forKey: .iat)
        nonce = try c.decodeIfPresent(String.self, forKey: .nonce)
        email = try c.decodeIfPresent(String.self, forKey: .email)
        if let flag = try? c.decodeIfPresent(Bool.self, forKey: .emailVerified) {
            emailVerified = flag
        } else if let text = try? c.decodeIfPresent(String.self, forKey: .emailVerified) {
            emailVerified = text == "true"
        }
        name = try? c.decodeIfPresent(String.self, forKey: .name)
        givenName = try? c.decodeIfPresent(String.self, forKey: .givenName)
        familyName = try? c.decodeIfPresent(String.self, forKey: .familyName)
        picture = try? c.decodeIfPresent(String.self, forKey: .picture)
        locale = try? c.decodeIfPresent(String.self, forKey: .locale)
        present = Set(try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue))
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(iss, forKey: .iss)
        try c.encode(sub, forKey: .sub)
    }

    package func verify(using algorithm: some JWTAlgorithm) async throws {}
}
