import ArgumentParser
import Foundation
import SesameServer

/// `sesame serve`'s passkey settings (docs/passkeys.md): the relying party's ID and name, the
/// app origins of native apps that use the server's passkeys, and how many wrong signatures in
/// a row lock a passkey.
struct PasskeyOptions: ParsableArguments {
    @Option(
        name: .customLong("passkey-rp-id"),
        help: ArgumentHelp(
            "The WebAuthn RP ID passkeys are bound to for good (default: the issuer's host). Browsers need a domain, never an IP address.",
            valueName: "domain"))
    var relyingPartyID: String?

    @Option(name: .customLong("passkey-rp-name"), help: "The name authenticators show (default: the RP ID).")
    var relyingPartyName: String?

    @Option(
        name: .customLong("passkey-origin"),
        help: ArgumentHelp(
            "Another origin passkey answers may come from (repeatable): an app origin such as ios:bundle-id:com.example.app or android:apk-key-hash:…, or a web origin under the RP ID.",
            valueName: "origin"))
    var origins: [String] = []

    @Option(
        name: .customLong("passkey-max-failures"),
        help: ArgumentHelp(
            "Assertions in a row whose signature does not verify (for a passkey protected by a PIN: wrong PINs) before a passkey is locked; the user removes it and adds it again.",
            valueName: "count"))
    var maximumFailures = 5

    func policy(issuerHost: String?) throws -> PasskeyPolicy {
        if let relyingPartyID {
            guard !relyingPartyID.isEmpty, !relyingPartyID.contains("/"), !relyingPartyID.contains(":") else {
                throw CLIError("--passkey-rp-id must be a host name", hint: "e.g. --passkey-rp-id example.com")
            }
            if let issuerHost, issuerHost != relyingPartyID, !issuerHost.hasSuffix("." + relyingPartyID) {
                throw CLIError(
                    "--passkey-rp-id \(relyingPartyID) is not the issuer's host \(issuerHost) or a parent domain of it",
                    hint: "Browsers accept only the page's host or a parent domain as the RP ID.")
            }
        }
        for origin in origins {
            let isApp = origin.hasPrefix("ios:bundle-id:") || origin.hasPrefix("android:apk-key-hash:")
            let isWeb = URL(string: origin).map { ["https", "http"].contains($0.scheme ?? "") && $0.host != nil && $0.path.isEmpty } ?? false
            guard isApp || isWeb else {
                throw CLIError(
                    "--passkey-origin \(origin) is neither a web origin nor an app origin",
                    hint: "e.g. https://www.example.com or ios:bundle-id:com.example.app")
            }
        }
        guard (1...1000).contains(maximumFailures) else {
            throw CLIError("--passkey-max-failures must be between 1 and 1000", hint: "e.g. --passkey-max-failures 5")
        }
        return PasskeyPolicy(
            relyingPartyID: relyingPartyID, relyingPartyName: relyingPartyName, additionalOrigins: origins,
            maximumFailedAssertions: maximumFailures)
    }
}
