import Foundation
import SesameProtocol
import SesameStore

/// Checks and applies a ``ProfileUpdate`` (OIDC Core §5.1 claim formats) for `PATCH
/// /api/profile` and the profile members of `POST /api/signup`.
///
/// Semantics (contract): an absent or `null` member leaves the claim unchanged; `""` clears it.
/// The same holds for each member of `address`.
package enum ProfileValidation {
    /// Names, nickname, address lines and the like.
    package static let maximumTextLength = 256
    package static let maximumURLLength = 2048
    package static let maximumFormattedAddressLength = 1024

    /// Every format and length problem of `update`, field by field.
    package static func violations(of update: ProfileUpdate) -> [FieldViolation] {
        var found: [FieldViolation] = []
        func check(_ value: String?, _ field: String, max: Int = maximumTextLength, _ isValid: (String) -> Bool = { _ in true }) {
            guard let value, !value.isEmpty else { return }
            if value.count > max {
                found.append(.tooLong(field, max: max))
            } else if !isValid(value) || value.unicodeScalars.contains(where: isControl) {
                found.append(.invalidFormat(field))
            }
        }
        check(update.name, "name")
        check(update.givenName, "given_name")
        check(update.familyName, "family_name")
        check(update.middleName, "middle_name")
        check(update.nickname, "nickname")
        check(update.preferredUsername, "preferred_username")
        check(update.profile, "profile", max: maximumURLLength, isWebURL)
        check(update.picture, "picture", max: maximumURLLength, isWebURL)
        check(update.website, "website", max: maximumURLLength, isWebURL)
        check(update.gender, "gender", max: 64)
        check(update.birthdate, "birthdate", max: 10, isBirthdate)
        check(update.zoneinfo, "zoneinfo", max: 64) { TimeZone(identifier: $0) != nil }
        check(update.locale, "locale", max: 35, isLanguageTag)
        check(update.phoneNumber, "phone_number", max: 16, PhoneNumber.isValidE164)
        if let address = update.address {
            check(address.formatted, "address.formatted", max: maximumFormattedAddressLength)
            check(address.streetAddress, "address.street_address", max: maximumFormattedAddressLength)
            check(address.locality, "address.locality")
            check(address.region, "address.region")
            check(address.postalCode, "address.postal_code", max: 32)
            check(address.country, "address.country")
        }
        return found
    }

    /// `claims` with `update` applied. Changing the phone number clears `phone_number_verified`.
    package static func apply(_ update: ProfileUpdate, to claims: StandardClaims) -> StandardClaims {
        var result = claims
        func merge(_ value: String?, into current: inout String?) {
            guard let value else { return }
            current = value.isEmpty ? nil : value
        }
        merge(update.name, into: &result.name)
        merge(update.givenName, into: &result.givenName)
        merge(update.familyName, into: &result.familyName)
        merge(update.middleName, into: &result.middleName)
        merge(update.nickname, into: &result.nickname)
        merge(update.preferredUsername, into: &result.preferredUsername)
        merge(update.profile, into: &result.profile)
        merge(update.picture, into: &result.picture)
        merge(update.website, into: &result.website)
        merge(update.gender, into: &result.gender)
        merge(update.birthdate, into: &result.birthdate)
        merge(update.zoneinfo, into: &result.zoneinfo)
        merge(update.locale, into: &result.locale)
        if let phone = update.phoneNumber, phone != (claims.phoneNumber ?? "") {
            merge(phone, into: &result.phoneNumber)
            result.phoneNumberVerified = result.phoneNumber == nil ? nil : false
        }
        if let changes = update.address {
            var address = claims.address ?? AddressClaim()
            merge(changes.formatted, into: &address.formatted)
            merge(changes.streetAddress, into: &address.streetAddress)
            merge(changes.locality, into: &address.locality)
            merge(changes.region, into: &address.region)
            merge(changes.postalCode, into: &address.postalCode)
            merge(changes.country, into: &address.country)
            result.address = address == AddressClaim() ? nil : address
        }
        return result
    }

    // MARK: Formats

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }

    /// An absolute `http` or `https` URL with a host (OIDC Core §5.1 `profile`, `picture`,
    /// `website`).
    package static func isWebURL(_ value: String) -> Bool {
        guard let components = URLComponents(string: value), let scheme = components.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = components.host, !host.isEmpty
        else { return false }
        return !value.contains(" ")
    }

    /// OIDC Core §5.1 `birthdate`: `YYYY-MM-DD`, `YYYY`, or `0000-MM-DD` when the year is
    /// withheld; the date must exist.
    package static func isBirthdate(_ value: String) -> Bool {
        let parts = value.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            parts.first?.count == 4
        else { return false }
        if parts.count == 1 { return parts[0] != "0000" }
        guard parts.count == 3, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1
        else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        // Year 0000 means "not given": check the day against a leap year.
        let components = DateComponents(year: year == 0 ? 2000 : year, month: month)
        guard let date = calendar.date(from: components),
            let days = calendar.range(of: .day, in: .month, for: date)
        else { return false }
        return days.contains(day)
    }

    /// A BCP 47 language tag in its common shape: a 2–3 letter language, then subtags of 1–8
    /// letters or digits (`nb-NO`, `zh-Hant-TW`, `en-US`).
    package static func isLanguageTag(_ value: String) -> Bool {
        let subtags = value.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = subtags.first, (2...3).contains(language.count),
            language.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return subtags.dropFirst().allSatisfy { subtag in
            (1...8).contains(subtag.count) && subtag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
