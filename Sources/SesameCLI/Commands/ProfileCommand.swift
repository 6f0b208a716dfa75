import ArgumentParser
import Foundation
import Sesame
import SesameProtocol

/// `sesame profile`: the signed-in user's OpenID standard claims (docs/first-party-and-accounts.md) from
/// `GET /api/profile`; `sesame profile set` updates some of them (`PATCH /api/profile`).
struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Show or change the signed-in user's profile.",
        subcommands: [ProfileShowCommand.self, ProfileSetCommand.self],
        defaultSubcommand: ProfileShowCommand.self)
}

/// `sesame profile [show]`.
struct ProfileShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print the profile (the default).")

    @OptionGroup var configDir: ConfigDirOption
    @OptionGroup var json: JSONOption

    func run() async throws {
        try await reportingErrors {
            let session = try ClientSession.open(configDir)
            let account = try await session.currentAccount()
            let claims = try await session.client.account.profile(account: account.id)
            AccountLabels.remember(claims, for: account, in: session.directory)
            try ProfilePrinter.print(claims, json: json.enabled)
        }
    }
}

/// `sesame profile set --name … --locale …`.
struct ProfileSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change profile claims; an empty value clears one.",
        discussion: """
            Only the claims given change. The email address changes through a verified flow, not \
            here. Example: sesame profile set --name "Ada Lovelace" --locale en-GB
            """)

    @Option(help: "Full name.") var name: String?
    @Option(name: .customLong("given-name"), help: "Given name.") var givenName: String?
    @Option(name: .customLong("family-name"), help: "Family name.") var familyName: String?
    @Option(name: .customLong("middle-name"), help: "Middle name.") var middleName: String?
    @Option(help: "Nickname.") var nickname: String?
    @Option(name: .customLong("preferred-username"), help: "Preferred username.") var preferredUsername: String?
    @Option(name: .customLong("profile-url"), help: "Profile page URL.") var profileURL: String?
    @Option(help: "Picture URL.") var picture: String?
    @Option(help: "Website URL.") var website: String?
    @Option(help: "Gender.") var gender: String?
    @Option(help: "Birthdate, YYYY-MM-DD or YYYY.") var birthdate: String?
    @Option(help: "Time zone, e.g. Europe/Oslo.") var zoneinfo: String?
    @Option(help: "Locale (BCP 47), e.g. nb-NO.") var locale: String?
    @Option(name: .customLong("phone-number"), help: "Phone number (E.164, e.g. +4712345678).") var phoneNumber: String?
    @OptionGroup var configDir: ConfigDirOption
    @OptionGroup var json: JSONOption

    var update: ProfileUpdate {
        ProfileUpdate(
            name: name, givenName: givenName, familyName: familyName, middleName: middleName,
            nickname: nickname, preferredUsername: preferredUsername, profile: profileURL,
            picture: picture, website: website, gender: gender, birthdate: birthdate,
            zoneinfo: zoneinfo, locale: locale, phoneNumber: phoneNumber)
    }

    func validate() throws {
        guard update != ProfileUpdate() else {
            throw ValidationError("Give at least one claim to change, e.g. --name \"Ada Lovelace\".")
        }
    }

    func run() async throws {
        try await reportingErrors {
            let session = try ClientSession.open(configDir)
            let account = try await session.currentAccount()
            let claims = try await APIErrorReport.explaining {
                try await session.client.account.updateProfile(update, account: account.id)
            }
            AccountLabels.remember(claims, for: account, in: session.directory)
            if !json.enabled { Terminal.progress("Profile updated.") }
            try ProfilePrinter.print(claims, json: json.enabled)
        }
    }
}

/// Profile claims as aligned rows or JSON.
enum ProfilePrinter {
    static func print(_ claims: StandardClaims, json: Bool) throws {
        if json {
            try Terminal.json(claims)
            return
        }
        var rows: [(String, String)] = [("Subject", claims.sub)]
        let optional: [(String, String?)] = [
            ("Name", claims.name), ("Given name", claims.givenName), ("Family name", claims.familyName),
            ("Middle name", claims.middleName), ("Nickname", claims.nickname),
            ("Username", claims.preferredUsername), ("Profile", claims.profile),
            ("Picture", claims.picture), ("Website", claims.website),
            ("Email", claims.email.map { $0 + (claims.emailVerified == true ? " (verified)" : " (not verified)") }),
            ("Gender", claims.gender), ("Birthdate", claims.birthdate), ("Time zone", claims.zoneinfo),
            ("Locale", claims.locale),
            ("Phone", claims.phoneNumber.map { $0 + (claims.phoneNumberVerified == true ? " (verified)" : "") }),
            ("Address", claims.address.flatMap(format)),
        ]
        for (label, value) in optional {
            if let value, !value.isEmpty { rows.append((label, value)) }
        }
        Terminal.table(rows)
    }

    private static func format(_ address: AddressClaim) -> String? {
        if let formatted = address.formatted { return formatted.replacingOccurrences(of: "\n", with: ", ") }
        let parts = [address.streetAddress, address.postalCode, address.locality, address.region, address.country]
        let text = parts.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
        return text.isEmpty ? nil : text
    }
}
