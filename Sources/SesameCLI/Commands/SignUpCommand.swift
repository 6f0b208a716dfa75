import ArgumentParser
import Foundation
import Sesame
import SesameProtocol

/// `sesame signup`: creates an account at a Sesame provider (`POST /api/signup`, docs/first-party-and-accounts.md),
/// then asks for the emailed verification code and confirms the address.
struct SignUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup",
        abstract: "Create an account and verify its email address.",
        discussion: """
            The password is asked twice without echo (or read as one line of stdin when it is \
            not a terminal); then the code emailed to the address is asked for (the next stdin \
            line). The issuer and client id are remembered like `sesame login` does, so \
            `sesame login --password` can follow without flags.
            Example: sesame signup --issuer http://127.0.0.1:8080 --client-id sesame-cli --email ada@example.com --name "Ada Lovelace"
            """)

    @Option(help: "The email address of the new account.")
    var email: String
    @Option(help: "Full name for the profile.")
    var name: String?
    @Option(help: "A username to sign in with (default: the email address).")
    var username: String?
    @Flag(name: .customLong("no-confirm"), help: "Do not ask for the verification code now.")
    var noConfirm = false
    @Option(help: "The OpenID provider's issuer URL (default: the remembered one).")
    var issuer: String?
    @Option(name: .customLong("client-id"), help: "The registered client id (default: the remembered one).")
    var clientID: String?
    @OptionGroup var configDir: ConfigDirOption
    @OptionGroup var json: JSONOption

    func run() async throws {
        try await reportingErrors {
            let directory = configDir.directory
            let remembered = try CLIProfile.load(from: directory)
            let profile = try makeProfile(remembered: remembered)
            let session = try ClientSession.open(configDir, profile: profile)
            _ = try await session.client.metadata()
            let password = try LoginPrompts.newPassword(for: email)
            let created = try await APIErrorReport.explaining {
                try await session.client.account.signUp(
                    email: email, password: password, username: username, profile: ProfileUpdate(name: name))
            }
            if remembered == nil { try profile.save(to: directory) }
            Terminal.progress("Created the account \(created.email). A verification code was sent to it.")
            var status = EmailVerificationStatus(email: created.email, emailVerified: created.emailVerified)
            if !noConfirm {
                let code = try LoginPrompts.line("Verification code: ", what: "verification code")
                status = try await session.client.account.confirmEmail(email: created.email, code: code)
            }
            if json.enabled {
                try Terminal.json(
                    SignUpResponse(sub: created.sub, email: created.email, emailVerified: status.emailVerified))
            } else if status.emailVerified {
                Terminal.out(
                    "Email \(created.email) verified. Sign in with: sesame login --password --username \(username ?? created.email)")
            } else {
                Terminal.out("Account \(created.email) created; the email address is not verified yet.")
            }
        }
    }

    private func makeProfile(remembered: CLIProfile?) throws -> CLIProfile {
        guard let issuerText = issuer ?? remembered?.issuer.absoluteString,
            let clientID = clientID ?? remembered?.clientID
        else {
            throw CLIError(
                "no issuer and client id to sign up with",
                hint: "Pass --issuer URL --client-id ID (they are remembered afterwards).")
        }
        guard let issuerURL = URL(string: issuerText), issuerURL.scheme != nil, issuerURL.host != nil else {
            throw CLIError(
                "--issuer '\(issuerText)' is not an absolute URL",
                hint: "Use e.g. https://id.example.com or http://127.0.0.1:8080.")
        }
        if let remembered, remembered.issuer == issuerURL, remembered.clientID == clientID { return remembered }
        return CLIProfile(
            issuer: issuerURL, clientID: clientID, redirectURI: CLIProfile.defaultRedirectURI,
            scopes: CLIProfile.defaultScopes)
    }
}
