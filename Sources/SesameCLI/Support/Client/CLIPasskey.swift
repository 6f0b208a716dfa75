import Foundation
import Sesame

/// The terminal's passkey (docs/passkeys.md): Sesame's software authenticator with its keys in
/// the config directory's encrypted store, the issuer's origin as its own, and a local passkey
/// PIN as its user verification (set at the first `sesame passkey add`).
extension ClientSession {
    var passkeyPIN: PasskeyLocalPIN { PasskeyLocalPIN(store: store) }

    /// The authenticator; UV comes from the passkey PIN, asked for without echo (or one line of
    /// stdin), when one is set.
    /// `typed`: the PIN the user has just set, so it is not asked again.
    func passkeyAuthenticator(typed: String? = nil) async -> SoftwarePasskeyAuthenticator {
        let pin = passkeyPIN
        let check: SoftwarePasskeyAuthenticator.LocalCheck? =
            await pin.isSet()
            ? pin.check(asking: { try typed ?? LoginPrompts.secret("Passkey PIN: ", what: "passkey PIN") }) : nil
        return SoftwarePasskeyAuthenticator(store: store, origin: Self.origin(of: profile.issuer), localCheck: check)
    }

    /// Sets the passkey PIN when none is set (asked twice on a terminal); returns it then.
    func ensurePasskeyPIN() async throws -> String? {
        guard await !passkeyPIN.isSet() else { return nil }
        let pin = try LoginPrompts.secret(
            "New passkey PIN (\(PasskeyLocalPIN.minimumLength)+ characters, it unlocks this machine's passkey): ",
            what: "passkey PIN")
        if Terminal.stdinIsTTY, try LoginPrompts.secret("Repeat the passkey PIN: ", what: "passkey PIN") != pin {
            throw CLIError("the two passkey PINs differ", hint: "Run `sesame passkey add` again.")
        }
        guard pin.count >= PasskeyLocalPIN.minimumLength else {
            throw CLIError(
                "the passkey PIN is shorter than \(PasskeyLocalPIN.minimumLength) characters",
                hint: "Run `sesame passkey add` again with a longer PIN.")
        }
        try await passkeyPIN.set(pin)
        return pin
    }

    /// `scheme://host[:port]` of `url`.
    static func origin(of url: URL) -> String {
        var origin = "\(url.scheme ?? "https")://\(url.host ?? "")"
        if let port = url.port { origin += ":\(port)" }
        return origin
    }
}
