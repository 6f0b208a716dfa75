import Foundation

/// `PATCH /api/profile` body: a partial set of OpenID standard claims (OIDC Core §5.1).
///
/// Semantics: an absent or `null` member leaves the claim unchanged; an empty string clears it.
/// `sub`, `email`, `email_verified` and `phone_number_verified` are not writable here (the
/// server answers 400 `validation_failed` with an `error_details` entry `not_writable`; email
/// changes go through `POST /api/email`). The answer is the updated ``StandardClaims``.
public struct ProfileUpdate: Codable, Sendable, Equatable {
    /// OIDC Core §5.1 `name`: full name for display, e.g. `Alice Smith`.
    public var name: String?
    /// OIDC Core §5.1 `given_name`: first name(s).
    public var givenName: String?
    /// OIDC Core §5.1 `family_name`: surname(s).
    public var familyName: String?
    /// OIDC Core §5.1 `middle_name`: middle name(s).
    public var middleName: String?
    /// OIDC Core §5.1 `nickname`: casual name, e.g. `Ali`.
    public var nickname: String?
    /// OIDC Core §5.1 `preferred_username`: a handle to show; not the login name, and not unique.
    public var preferredUsername: String?
    /// OIDC Core §5.1 `profile`: absolute `http(s)` URL of the user's profile page.
    public var profile: String?
    /// OIDC Core §5.1 `picture`: absolute `http(s)` URL of a profile picture.
    public var picture: String?
    /// OIDC Core §5.1 `website`: absolute `http(s)` URL of the user's web page or blog.
    public var website: String?
    /// OIDC Core §5.1 `gender`: `female`, `male` or any other value (at most 64 characters).
    public var gender: String?
    /// `YYYY-MM-DD` or `YYYY` (OIDC Core §5.1).
    public var birthdate: String?
    /// IANA time zone, e.g. `Europe/Oslo`.
    public var zoneinfo: String?
    /// BCP 47 tag, e.g. `nb-NO`.
    public var locale: String?
    /// E.164, e.g. `+4712345678`. Changing it clears `phone_number_verified`.
    public var phoneNumber: String?
    /// OIDC Core §5.1.1 `address`; each of its members is absent, a value, or `""` to clear it.
    public var address: AddressClaim?

    /// An update that sets the claims given and leaves every `nil` one unchanged; `""` clears one.
    public init(
        name: String? = nil, givenName: String? = nil, familyName: String? = nil,
        middleName: String? = nil, nickname: String? = nil, preferredUsername: String? = nil,
        profile: String? = nil, picture: String? = nil, website: String? = nil,
        gender: String? = nil, birthdate: String? = nil, zoneinfo: String? = nil,
        locale: String? = nil, phoneNumber: String? = nil, address: AddressClaim? = nil
    ) {
        self.name = name
        self.givenName = givenName
        self.familyName = familyName
        self.middleName = middleName
        self.nickname = nickname
        self.preferredUsername = preferredUsername
        self.profile = profile
        self.picture = picture
        self.website = website
        self.gender = gender
        self.birthdate = birthdate
        self.zoneinfo = zoneinfo
        self.locale = locale
        self.phoneNumber = phoneNumber
        self.address = address
    }

    /// The claim names clients may not write through ``ProfileUpdate``.
    public static let readOnlyClaims: Set<String> = [
        "sub", "email", "email_verified", "phone_number_verified", "updated_at",
    ]

    enum CodingKeys: String, CodingKey {
        case name, nickname, profile, picture, website, gender, birthdate, zoneinfo, locale, address
        case givenName = "given_name"
        case familyName = "family_name"
        case middleName = "middle_name"
        case preferredUsername = "preferred_username"
        case phoneNumber = "phone_number"
    }
}
