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

    @Option(
        name: .customLong("passkey-apple-app"),
        help: ArgumentHelp(
            "An iOS or macOS app that may use the passkeys (repeatable): its App ID, TEAMID.bundle.id. Listed under webcredentials in /.well-known/apple-app-site-association.",
            valueName: "app-id"))
    var appleApps: [String] = []

    @Option(
        name: .customLong("apple-app-link"),
        help: ArgumentHelp(
            "A path of this server's domain an iOS or macOS app opens as a universal link (repeatable): TEAMID.bundle.id:/path, e.g. for an https redirect URI (RFC 8252 §7.2). Listed under applinks in /.well-known/apple-app-site-association.",
            valueName: "app-id:path"))
    var appleAppLinks: [String] = []

    @Option(
        name: .customLong("passkey-android-app"),
        help: ArgumentHelp(
            "An Android app that may use the passkeys (repeatable): package:SHA-256 fingerprint of its signing certificate as keytool prints it. Listed in /.well-known/assetlinks.json; its apk-key-hash origin is accepted.",
            valueName: "package:fingerprint"))
    var androidApps: [String] = []

    /// The associated apps; an Android package named twice gets both fingerprints.
    func apps() throws -> AppAssociation {
        var apps = AppAssociation()
        do {
            for text in appleApps {
                let id = try AppAssociation.appleAppID(text)
                if !apps.appleAppIDs.contains(id) { apps.appleAppIDs.append(id) }
            }
            for text in androidApps {
                let app = try AppAssociation.androidApp(text)
                if let index = apps.androidApps.firstIndex(where: { $0.packageName == app.packageName }) {
                    for fingerprint in app.certificateFingerprints
                    where !apps.androidApps[index].certificateFingerprints.contains(fingerprint) {
                        apps.androidApps[index].certificateFingerprints.append(fingerprint)
                    }
                } else {
                    apps.androidApps.append(app)
                }
            }
        } catch {
            throw CLIError(
                "--passkey-apple-app / --passkey-android-app: \(error.description)",
                hint: "e.g. --passkey-apple-app ABCDE12345.com.example.app --passkey-android-app com.example.app:AB:CD:…")
        }
        do {
            for text in appleAppLinks {
                let link = try AppAssociation.appLink(text)
                apps.addAppLink(appID: link.appID, path: link.path)
            }
        } catch {
            throw CLIError(
                "--apple-app-link: \(error.description)", hint: "e.g. --apple-app-link ABCDE12345.com.example.app:/callback/ios")
        }
        return apps
    }

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
            maximumFailedAssertions: maximumFailures, apps: try apps())
    }
}
