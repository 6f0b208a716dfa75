import Crypto
import Foundation
import SesameProtocol
import SesameStore

/// The server as a WebAuthn relying party (docs/passkeys.md): its RP ID, the origins it accepts
/// (§13.4.9: exact matches only), and the lifetimes of its challenges.
public struct PasskeyPolicy: Sendable, Equatable {
    /// The RP ID (§5.1.3); `nil`: the issuer's host. Passkeys are bound to it for good.
    public var relyingPartyID: String?
    /// Shown by authenticators; `nil`: the RP ID.
    public var relyingPartyName: String?
    /// Origins besides the issuer's own: the app origins of native apps
    /// (`ios:bundle-id:com.example.app`, `android:apk-key-hash:…`) or other web origins that share
    /// the RP ID. Compared exactly.
    public var additionalOrigins: [String]
    /// How long an options answer can be used. Default 5 minutes (§5.4 `timeout` is a hint).
    public var challengeLifetime: TimeInterval
    /// Assertions in a row whose signature does not verify with a credential's registered key
    /// before the credential is locked (docs/passkeys.md, "Wrong signatures"). For a software
    /// passkey sealed under a PIN each is a wrong PIN, so this is its PIN's attempt limit.
    /// Default 5; at least 1.
    public var maximumFailedAssertions: Int
    /// The native apps that may use the passkeys (``AppAssociation``): served in the association
    /// files, and their Android origins accepted.
    public var apps: AppAssociation

    public init(
        relyingPartyID: String? = nil, relyingPartyName: String? = nil, additionalOrigins: [String] = [],
        challengeLifetime: TimeInterval = 300, maximumFailedAssertions: Int = 5, apps: AppAssociation = AppAssociation()
    ) {
        self.relyingPartyID = relyingPartyID
        self.relyingPartyName = relyingPartyName
        self.additionalOrigins = additionalOrigins
        self.challengeLifetime = challengeLifetime
        self.maximumFailedAssertions = max(1, maximumFailedAssertions)
        self.apps = apps
    }

    /// The algorithms offered and accepted, in order of preference (§5.3, COSE).
    package static let algorithms: [COSEKey.Algorithm] = [.es256, .edDSA, .rs256]
}

/// ``PasskeyPolicy`` resolved against the issuer.
package struct RelyingParty: Sendable {
    package let id: String
    package let name: String
    /// The issuer's origin, the configured ones and the associated Android apps'.
    package let origins: Set<String>
    /// SHA-256 of ``id`` (§6.1 `rpIdHash`).
    package let idHash: Data

    package init(policy: PasskeyPolicy, issuer: URL) {
        let host = issuer.host ?? "localhost"
        var issuerOrigin = "\(issuer.scheme ?? "https")://\(host)"
        if let port = issuer.port { issuerOrigin += ":\(port)" }
        let id = policy.relyingPartyID ?? host
        self.init(
            id: id, name: policy.relyingPartyName ?? id,
            origins: Set([issuerOrigin] + policy.additionalOrigins + policy.apps.origins))
    }

    package init(id: String, name: String? = nil, origins: Set<String>) {
        self.id = id
        self.name = name ?? id
        self.origins = origins
        idHash = Data(SHA256.hash(data: Data(id.utf8)))
    }
}
