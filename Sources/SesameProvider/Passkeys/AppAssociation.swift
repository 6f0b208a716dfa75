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
/// - Apple universal links (``appLinks``): paths of this domain an app opens instead of the
///   browser, under `applinks` in the same file; an app whose redirect URI is a claimed https URL
///   on this domain (RFC 8252 §7.2) lists it here.
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

    /// An Apple app and the paths of this domain it opens as universal links.
    public struct AppLink: Sendable, Equatable {
        /// `TEAMID.bundle.id`.
        public var appID: String
        /// Path patterns as the `/` component of `applinks` reads them (`*` and `?` wildcards).
        public var paths: [String]

        public init(appID: String, paths: [String]) {
            self.appID = appID
            self.paths = paths
        }
    }

    public var appleAppIDs: [String]
    public var androidApps: [AndroidApp]
    public var appLinks: [AppLink]

    public init(appleAppIDs: [String] = [], androidApps: [AndroidApp] = [], appLinks: [AppLink] = []) {
        self.appleAppIDs = appleAppIDs
        self.androidApps = androidApps
        self.appLinks = appLinks
    }

    public var isEmpty: Bool { appleAppIDs.isEmpty && androidApps.isEmpty && appLinks.isEmpty }

    /// The WebAuthn origins of the Android apps (`android:apk-key-hash:…`, base64url without
    /// padding, as Credential Manager sends in `clientDataJSON`).
    public var origins: [String] {
        androidApps.flatMap { app in
            app.certificateFingerprints.map { "android:apk-key-hash:" + Base64URL.encode($0) }
        }
    }

    /// `{"applinks":{"details":[{"appIDs":[…],"components":[{"/":…}]}]},"webcredentials":{"apps":[…]}}`
    /// (Apple, "Supporting associated domains"; the `components` form of iOS 13 and later), each
    /// section present when it has an app; `nil` without Apple apps.
    package func appleAppSiteAssociation() -> Data? {
        guard !appleAppIDs.isEmpty || !appLinks.isEmpty else { return nil }
        var document: [String: Any] = [:]
        if !appleAppIDs.isEmpty { document["webcredentials"] = ["apps": appleAppIDs] }
        if !appLinks.isEmpty {
            document["applinks"] = [
                "details": appLinks.map { link in
                    ["appIDs": [link.appID], "components": link.paths.map { ["/": $0] }] as [String: Any]
                }
            ]
        }
        return try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// Adds `path` to `appID`'s universal links (once), keeping the order they were given in.
    public mutating func addAppLink(appID: String, path: String) {
        if let index = appLinks.firstIndex(where: { $0.appID == appID }) {
            if !appLinks[index].paths.contains(path) { appLinks[index].paths.append(path) }
        } else {
            appLinks.append(AppLink(appID: appID, paths: [path]))
        }
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

    /// Reads `TEAMID.bundle.id:/path` (a universal link): an App ID, a colon, and an absolute
    /// path of at most 1,024 visible ASCII characters without a query or fragment (`*` and `?`
    /// are the `applinks` wildcards).
    public static func appLink(_ text: String) throws(AppAssociationError) -> (appID: String, path: String) {
        guard let colon = text.firstIndex(of: ":") else {
            throw AppAssociationError(
                description: "'\(text.prefix(100))' is not TEAMID.bundle.id:/path, e.g. ABCDE12345.com.example.app:/callback/ios")
        }
        let appID = try appleAppID(String(text[..<colon]))
        let path = String(text[text.index(after: colon)...])
        guard path.hasPrefix("/"), path.count <= 1024 else {
            throw AppAssociationError(
                description: "the universal link path of \(appID) must start with '/' (and be at most 1,024 characters)")
        }
        guard path.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "#" && $0 != "\\" }) else {
            throw AppAssociationError(
                description: "the universal link path '\(path.prefix(100))' of \(appID) has a space, a control, non-ASCII, '#' or '\\' character")
        }
        return (appID, path)
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
