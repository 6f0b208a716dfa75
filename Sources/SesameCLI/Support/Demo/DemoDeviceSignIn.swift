import Foundation
import ScriptedBrowser
import Sesame
import SesameProtocol
import SesameServer

/// The demo's device step (docs/device-authorization.md): a TV app with no browser signs in with
/// the device authorization grant (RFC 8628) while a person approves on the server's `/device`
/// page from their phone, played by ``DeviceApproval`` over real HTTP.
extension DemoWalkthrough {
    static let tvClientID = "sesame-demo-tv"

    /// Step 14: the TV shows a code, the person opens the link, signs in and allows the TV; the
    /// TV's polls turn into a session with the approving sign-in's `amr`.
    func deviceSignIn(user: DemoUser) async throws {
        let admin = ServerAdmin(store: server.store, hasher: Self.demoHasher, keyRing: server.keyRing)
        _ = try await admin.addClient(
            ClientSpec(
                clientID: Self.tvClientID, name: "Sesame demo TV", grantTypes: [.deviceCode, .refreshToken],
                scopes: ["openid", "profile", "email", "offline_access"]))
        steps.ok("client \(Self.tvClientID): public, grant urn:ietf:params:oauth:grant-type:device_code, no redirect URI")
        let tv = SesameClient(
            configuration: SesameConfiguration(issuer: server.issuer, clientID: Self.tvClientID, redirectURI: Self.redirectURI),
            store: InMemoryCredentialStore(), transport: URLSessionTransport(), clock: SystemClock(),
            logger: Self.quietLogger)
        var polls = 0
        for try await state in tv.signInOnAnotherDevice(deviceName: "Living room TV") {
            switch state {
            case .showCode(let prompt):
                steps.detail("POST /device_authorization → the TV shows: go to \(prompt.verificationURI.absoluteString), enter \(prompt.userCode)")
                steps.detail("(or scan a QR code of \(prompt.qrCodeURI.absoluteString))")
                let person = DeviceApproval(
                    login: HostedLogin(username: user.username, password: user.password) { DemoSteps.detail("phone: " + $0) })
                // The TV polls only when asked for its next state: the person answers first.
                let page = try await person.decide(.approve, at: prompt.qrCodeURI)
                try demoExpect(page.body.contains("Device connected"), "the phone's page says the device is connected")
            case .waiting:
                polls += 1
                steps.detail("TV: POST /token grant_type=…device_code → authorization_pending (poll \(polls))")
            case .approved(let account):
                let claims = try await tv.idTokenClaims(for: account.id)
                steps.detail("TV: POST /token → tokens; amr \(claims.amr?.joined(separator: " ") ?? "-") (the phone's sign-in)")
                steps.ok("the TV is signed in as \(user.email) without a keyboard; the person saw the app and device named before allowing it")
                return
            case .denied, .expired:
                throw CLIError("expectation failed: the TV's sign-in ended with \(state)")
            }
        }
        throw CLIError("expectation failed: the TV's sign-in ended without an answer")
    }
}
