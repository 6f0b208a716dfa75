import Foundation
import SesameProtocol

/// The native apps allowed to use this server's passkeys: the platforms only let an app create or
/// use a passkey for an RP ID whose domain lists the app (docs/passkeys.md, "Apps").
/// - Apple: the app's App ID (`TEAMID.bundle.id`) under `webcredentials` in
///   `/.well-known/apple-app-site-association` (Apple, "Supporting associated domains").
/// - Android: the package name and the SHA-256 fingerprints of its signing certificates, with the
///   relation `delegate_permission/common.get_login_creds`, in `/.well-known/assetlinks.json`
///   (Google, Digital Asset Links; Credential Manager). An Android app's WebAuthn origin is
///   `android:apk-key-hash:<base64url of the fingerprint>`, so each fingerprint is also an origin
///   the ceremonies accept (``origins``).
public struct AppAssociation: Sendable, Equatable {
    /// An Android app: its package name and signing-certificate fingerprints.
    public struct AndroidApp: Sendable, Equatable {
        public var packageName: String
        /// SHA-256 of each signing certificate, 32 bytes.
        public var certificateFingerprints: [Data]

        public init(packageName: String, certificateFingerprints: [Data]) {
            self.packageName = packageName
            self.certificateFingerprints = certificateFingerprints
        }
    }

    public var appleAppIDs: [String]
    public var androidApps: [AndroidApp]

    public init(appleAppIDs: [String] = [], androidApps: [AndroidApp] = []) {
        self.appleAppIDs = appleAppIDs
        self.androidApps = androidApps
    }

    public var isEmpty: Bool { appleAppIDs.isEmpty && androidApps.isEmpty }

    /// The WebAuthn origins of the Android apps (`android:apk-key-hash:…`, base64url without
    /// padding, as Credential Manager sends in `clientDataJSON`).
    public var origins: [String] {
        androidApps.flatMap { app in
            app.certificateFingerprints.map { "android:apk-key-hash:" + Base64URL.encode($0) }
        }
    }

    /// `{"webcredentials":{"apps":[…]}}`; `nil` without Apple apps.
    package func appleAppSiteAssociation() -> Data? {
        guard !appleAppIDs.isEmpty else { return nil }
        let document = ["webcredentials": ["apps": appleAppIDs]]
        return try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// One statement per Android app; `nil` without Android apps.
    package func assetLinks() -> Data? {
        guard !androidApps.isEmpty else { return nil }
        let statements: [[String: Any]] = androidApps.map { app in
            [
                "relation": ["delegate_permission/common.get_login_creds"],
                "target": [
                    "namespace": "android_app", "package_name": app.packageName,
                    "sha256_cert_fingerprints": app.certificateFingerprints.map(Self.colonHex),
                ] as [String: Any],
            ]
        }
        return try? JSONSerialization.data(withJSONObject: statements, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// `AB:CD:…`, the form `keytool -list` prints and Digital Asset Links expects.
    public static func colonHex(_ fingerprint: Data) -> String {
        fingerprint.map { String(format: "%02X", $0) }.joined(separator: ":")
    }
}

/// Why an app association is refused, naming the value and the rule.
public struct AppAssociationError: Error, Equatable, CustomStringConvertible, Sendable {
    public var description: String
}

extension AppAssociation {
    /// Reads an Apple App ID: a 10-character Team ID (letters and digits), a dot, a bundle ID
    /// (letters, digits, `-` and `.`).
    public static func appleAppID(_ text: String) throws(AppAssociationError) -> String {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let team = parts.first.map(String.init) ?? ""
        let bundle = parts.count == 2 ? String(parts[1]) : ""
        guard team.count == 10, team.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw AppAssociationError(
                description: "'\(text.prefix(100))' does not start with a 10-character Team ID: use TEAMID.com.example.app")
        }
        guard !bundle.isEmpty, bundle.count <= 155, !bundle.hasPrefix("."), !bundle.hasSuffix("."),
            bundle.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") })
        else {
            throw AppAssociationError(
                description: "'\(text.prefix(100))' has no valid bundle ID after the Team ID (letters, digits, '-' and '.')")
        }
        return text
    }

    /// Reads `package.name:AB:CD:…` (the fingerprint as `keytool -list` prints it, 32 bytes).
    public static func androidApp(_ text: String) throws(AppAssociationError) -> AndroidApp {
        guard let colon = text.firstIndex(of: ":") else {
            throw AppAssociationError(
                description: "'\(text.prefix(100))' is not package:fingerprint, e.g. com.example.app:AB:CD:…(32 bytes)")
        }
        let package = String(text[..<colon])
        let segments = package.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count >= 2, package.count <= 255,
            segments.allSatisfy({ segment in
                guard let first = segment.first, first.isASCII, first.isLetter else { return false }
                return segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            })
        else {
            throw AppAssociationError(
                description: "'\(package.prefix(100))' is not an Android package name (two or more segments such as com.example.app)")
        }
        let hex = text[text.index(after: colon)...].split(separator: ":", omittingEmptySubsequences: false)
        let bytes = hex.compactMap { $0.count == 2 ? UInt8($0, radix: 16) : nil }
        guard hex.count == 32, bytes.count == 32 else {
            throw AppAssociationError(
                description: "the fingerprint of \(package) is not 32 hexadecimal bytes separated by ':' (keytool -list -v prints it as SHA256)")
        }
        return AndroidApp(packageName: package, certificateFingerprints: [Data(bytes)])
    }
}
