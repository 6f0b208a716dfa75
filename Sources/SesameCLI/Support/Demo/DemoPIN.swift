import Foundation
import Sesame
import SesameProtocol
import SesameServer

/// The demo's PIN step (docs/pin-devices.md): a device registers a PIN after a native sign-in,
/// a fresh start unlocks with it, and a wrong PIN shows the attempts left.
extension DemoWalkthrough {
    /// Step 10: `user` signs in natively, registers PIN 975310, then a fresh app start (same
    /// store) fails once with a wrong PIN and unlocks with the right one (`amr` pin swk).
    func pinUnlock(user: DemoUser) async throws {
        let store = InMemoryCredentialStore()
        let configuration = SesameConfiguration(issuer: server.issuer, clientID: Self.clientID, redirectURI: Self.redirectURI)
        func app() -> SesameClient {
            SesameClient(
                configuration: configuration, store: store, transport: URLSessionTransport(), clock: SystemClock(),
                logger: Self.quietLogger)
        }
        let device = app()
        guard case .signedIn = try await device.login(username: user.username, password: user.password) else {
            throw CLIError("expectation failed: \(user.username) needed a second factor")
        }
        let profile = try await device.pin.register("975310")
        steps.detail("POST /api/pin/registrations (Ed25519 public key; the private key sealed under scrypt(PIN), 64 MiB)")
        steps.detail("registration \(profile.id); the stored refresh token is gone, the session lives in memory")

        let restarted = app()
        var remaining: Int?
        do {
            try await restarted.pin.unlock(with: "135790")
        } catch {
            guard case .wrongPIN(let left) = error.reason else { throw error }
            remaining = left
        }
        guard let remaining else { throw CLIError("expectation failed: a wrong PIN unlocked") }
        steps.detail("a wrong PIN → 400 invalid_pin, \(remaining) attempts left before the registration is revoked")
        let account = try await restarted.pin.unlock(with: "975310")
        let claims = try await restarted.idTokenClaims(for: account.id)
        steps.detail("POST /api/pin/nonce → signed → POST /token grant_type=\(PINUnlock.grantType)")
        steps.detail("amr       \(claims.amr?.joined(separator: " ") ?? "-")")
        try demoExpect(claims.amr == ["pin", "swk"], "amr is pin swk")
        steps.ok("unlocked \(user.email) with the PIN; the server counts wrong PINs, the device cannot")
    }
}
