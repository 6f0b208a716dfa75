import ArgumentParser
import Foundation

/// `--issuer` and `--client-id` for commands that act as the app itself, before or without a
/// signed-in user (`sesame token --app`, `sesame client-key`): they default to the remembered
/// profile, and are not remembered.
struct AppIdentityOptions: ParsableArguments {
    @Option(help: "The OpenID provider's issuer URL (default: the remembered one).")
    var issuer: String?
    @Option(name: .customLong("client-id"), help: "The registered client id (default: the remembered one).")
    var clientID: String?

    /// The profile to act with: the remembered one with these options applied.
    func profile(_ directory: ConfigDirectory) throws -> CLIProfile {
        let remembered = try CLIProfile.load(from: directory)
        guard let issuerText = issuer ?? remembered?.issuer.absoluteString,
            let clientID = clientID ?? remembered?.clientID
        else {
            throw CLIError(
                "no issuer and client id to act as", hint: "Pass --issuer URL --client-id ID, or sign in with `sesame login` first.")
        }
        guard let url = URL(string: issuerText), url.scheme != nil, url.host != nil else {
            throw CLIError("--issuer '\(issuerText)' is not an absolute URL", hint: "Use e.g. https://id.example.com.")
        }
        var profile = remembered ?? CLIProfile(
            issuer: url, clientID: clientID, redirectURI: CLIProfile.defaultRedirectURI, scopes: CLIProfile.defaultScopes)
        profile.issuer = url
        profile.clientID = clientID
        return profile
    }
}
