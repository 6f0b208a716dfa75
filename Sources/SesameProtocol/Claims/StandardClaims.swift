import Foundation

/// The OpenID Connect standard claims (OIDC Core §5.1), as returned by the UserInfo endpoint
/// (§5.3.2) and read/updated through the profile API. `sub` is always present in responses.
public struct StandardClaims: Codable, Sendable, Equatable {
    /// OIDC Core §5.1 `sub`: the user's stable identifier at this issuer; never reassigned. Key
    /// accounts by it (with the issuer), not by `email`.
    public var sub: String
    /// OIDC Core §5.1 `name`: full name for display.
    public var name: String?
    /// OIDC Core §5.1 `given_name`: first name(s).
    public var givenName: String?
    /// OIDC Core §5.1 `family_name`: surname(s).
    public var familyName: String?
    /// OIDC Core §5.1 `middle_name`: middle name(s).
    public var middleName: String?
    /// OIDC Core §5.1 `nickname`: casual name.
    public var nickname: String?
    /// OIDC Core §5.1 `preferred_username`: a handle to show; not unique, so never a key.
    public var preferredUsername: String?
    /// OIDC Core §5.1 `profile`: URL of the user's profile page.
    public var profile: String?
    /// OIDC Core §5.1 `picture`: URL of a profile picture.
    public var picture: String?
    /// OIDC Core §5.1 `website`: URL of the user's web page or blog.
    public var website: String?
    /// OIDC Core §5.1 `email`: preferred address; may change and is not necessarily verified (see
    /// `emailVerified`).
    public var email: String?
    /// OIDC Core §5.1 `email_verified`: `true` when the user proved control of `email`.
    public var emailVerified: Bool?
    /// OIDC Core §5.1 `gender`: `female`, `male` or another value.
    public var gender: String?
    /// `YYYY-MM-DD` or `YYYY` (OIDC Core §5.1).
    public var birthdate: String?
    /// OIDC Core §5.1 `zoneinfo`: IANA time zone, e.g. `Europe/Oslo`.
    public var zoneinfo: String?
    /// OIDC Core §5.1 `locale`: BCP 47 language tag, e.g. `nb-NO`.
    public var locale: String?
    /// OIDC Core §5.1 `phone_number`: E.164, e.g. `+4712345678`.
    public var phoneNumber: String?
    /// OIDC Core §5.1 `phone_number_verified`: `true` when the number was confirmed (an SMS code).
    public var phoneNumberVerified: Bool?
    /// OIDC Core §5.1.1 `address`: postal address.
    public var address: AddressClaim?
    /// Seconds since the epoch. Read as a ``NumericDate`` (RFC 7519 §2) and rounded down; a
    /// value that is none (`1e30`, `-1`, `"NaN"`) is dropped, as profile claims are informational.
    public var updatedAt: Int?

    /// Claims with only `sub` set.
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

    /// Decodes the claims; an `updated_at` that is not a valid NumericDate is dropped instead of
    /// failing the whole object.
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
    /// OIDC Core §5.1.1 `formatted`: the full address for display; lines may be separated by `\n`.
    public var formatted: String?
    /// OIDC Core §5.1.1 `street_address`: house number, street, and apartment or P.O. box; may
    /// span lines.
    public var streetAddress: String?
    /// OIDC Core §5.1.1 `locality`: city or locality.
    public var locality: String?
    /// OIDC Core §5.1.1 `region`: state, province, prefecture or region.
    public var region: String?
    /// OIDC Core §5.1.1 `postal_code`: zip or postal code.
    public var postalCode: String?
    /// OIDC Core §5.1.1 `country`: country name.
    public var country: String?

    /// An address with the components given; `nil` ones are absent.
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
