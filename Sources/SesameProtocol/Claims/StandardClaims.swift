import Foundation

/// The OpenID Connect standard claims (OIDC Core §5.1), as returned by the UserInfo endpoint
/// (§5.3.2) and read/updated through the profile API. `sub` is always present in responses.
public struct StandardClaims: Codable, Sendable, Equatable {
    public var sub: String
    public var name: String?
    public var givenName: String?
    public var familyName: String?
    public var middleName: String?
    public var nickname: String?
    public var preferredUsername: String?
    public var profile: String?
    public var picture: String?
    public var website: String?
    public var email: String?
    public var emailVerified: Bool?
    public var gender: String?
    /// `YYYY-MM-DD` or `YYYY` (OIDC Core §5.1).
    public var birthdate: String?
    public var zoneinfo: String?
    public var locale: String?
    public var phoneNumber: String?
    public var phoneNumberVerified: Bool?
    public var address: AddressClaim?
    /// Seconds since the epoch. Read as a ``NumericDate`` (RFC 7519 §2) and rounded down; a
    /// value that is none (`1e30`, `-1`, `"NaN"`) is dropped, as profile claims are informational.
    public var updatedAt: Int?

    public init(sub: String) { self.sub = sub }

    enum CodingKeys: String, CodingKey {
        case sub, name, nickname, profile, picture, website, email, gender, birthdate, zoneinfo,
            locale, address
        case givenName = "given_name"
        case familyName = "family_name"
        case middleName = "middle_name"
        case preferredUsername = "preferred_username"
        case emailVerified = "email_verified"
        case phoneNumber = "phone_number"
        case phoneNumberVerified = "phone_number_verified"
        case updatedAt = "updated_at"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sub = try c.decode(String.self, forKey: .sub)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        givenName = try c.decodeIfPresent(String.self, forKey: .givenName)
        familyName = try c.decodeIfPresent(String.self, forKey: .familyName)
        middleName = try c.decodeIfPresent(String.self, forKey: .middleName)
        nickname = try c.decodeIfPresent(String.self, forKey: .nickname)
        preferredUsername = try c.decodeIfPresent(String.self, forKey: .preferredUsername)
        profile = try c.decodeIfPresent(String.self, forKey: .profile)
        picture = try c.decodeIfPresent(String.self, forKey: .picture)
        website = try c.decodeIfPresent(String.self, forKey: .website)
        email = try c.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try c.decodeIfPresent(Bool.self, forKey: .emailVerified)
        gender = try c.decodeIfPresent(String.self, forKey: .gender)
        birthdate = try c.decodeIfPresent(String.self, forKey: .birthdate)
        zoneinfo = try c.decodeIfPresent(String.self, forKey: .zoneinfo)
        locale = try c.decodeIfPresent(String.self, forKey: .locale)
        phoneNumber = try c.decodeIfPresent(String.self, forKey: .phoneNumber)
        phoneNumberVerified = try c.decodeIfPresent(Bool.self, forKey: .phoneNumberVerified)
        address = try c.decodeIfPresent(AddressClaim.self, forKey: .address)
        updatedAt = (try? c.numericDateIfPresent(forKey: .updatedAt)?.get()).map { Int($0.seconds) }
    }
}

/// OIDC Core §5.1.1 address claim.
public struct AddressClaim: Codable, Sendable, Equatable {
    public var formatted: String?
    public var streetAddress: String?
    public var locality: String?
    public var region: String?
    public var postalCode: String?
    public var country: String?

    public init(
        formatted: String? = nil, streetAddress: String? = nil, locality: String? = nil,
        region: String? = nil, postalCode: String? = nil, country: String? = nil
    ) {
        self.formatted = formatted
        self.streetAddress = streetAddress
        self.locality = locality
        self.region = region
        self.postalCode = postalCode
        self.country = country
    }

    enum CodingKeys: String, CodingKey {
        case formatted, locality, region, country
        case streetAddress = "street_address"
        case postalCode = "postal_code"
    }
}
