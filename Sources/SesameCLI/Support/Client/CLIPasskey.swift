import Foundation
import Sesame

/// The terminal's passkey (docs/passkeys.md): Sesame's software authenticator with its keys in
/// the config directory's encrypted store, the issuer's origin as its own, and each key sealed
/// under the passkey PIN chosen at `sesame passkey add` (asked without echo, or one line of
/// stdin). The PIN is its user verification: nothing stored can check a PIN, the server counts
/// wrong ones.
extension ClientSession {
    /// The authenticator, asking for the passkey PIN when a key is used; `newPIN` is the PIN a
    /// new key is sealed under (``newPasskeyPIN()``).
    func passkeyAuthenticator(newPIN: String? = nil) -> SoftwarePasskeyAuthenticator {
        SoftwarePasskeyAuthenticator(store: store, origin: Self.origin(of: profile.issuer)) { request in
            switch request {
            case .newPasskey:
                guard let newPIN else { throw PasskeyAuthenticatorError.userVerificationUnavailable }
                return newPIN
            case .unlock(_, let userName):
                return try LoginPrompts.secret("Passkey PIN for \(userName): ", what: "passkey PIN")
            }
        }
    }

    /// Asks for the PIN a new passkey is sealed under: twice on a terminal, once from stdin.
    func newPasskeyPIN() throws -> String {
        let minimum = SoftwarePasskeyAuthenticator.minimumPINLength
        let pin = try LoginPrompts.secret(
            "New passkey PIN (\(minimum)+ characters; it seals this machine's passkey): ", what: "passkey PIN")
        guard pin.count >= minimum else {
            throw CLIError(
                "the passkey PIN is shorter than \(minimum) characters", hint: "Run `sesame passkey add` again with a longer PIN.")
        }
        if Terminal.stdinIsTTY, try LoginPrompts.secret("Repeat the passkey PIN: ", what: "passkey PIN") != pin {
            throw CLIError("the two passkey PINs differ", hint: "Run `sesame passkey add` again.")
        }
        return pin
    }

    /// `scheme://host[:port]` of `url`.
    static func origin(of url: URL) -> String {
        var origin = "\(url.scheme ?? "https")://\(url.host ?? "")"
        if let port = url.port { origin += ":\(port)" }
        return origin
    }
}
