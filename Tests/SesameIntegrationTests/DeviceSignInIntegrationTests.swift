import Foundation
import ScriptedBrowser
import Sesame
import SesameProtocol
import SesameServer
import SesameTesting
import Testing

/// The SDK's `signInOnAnotherDevice` (RFC 8628) against the real server over loopback HTTP,
/// while a person approves or denies on the `/device` page (``DeviceApproval``, real HTTP and
/// the hosted login): the states, a session that works, DPoP-bound tokens, a denial.
@Suite("SDK device sign-in against the real server (RFC 8628)")
struct DeviceSignInIntegrationTests {
    static let tvApp = "it-tv"

    /// A server whose device requests poll every second (the tests' patience), with the TV app.
    func withTVServer(_ body: (IntegrationServer) async throws -> Void) async throws {
        try await withServer(configure: { $0.deviceAuthorization.interval = 1 }) { server in
            let admin = ServerAdmin(store: server.server.store, hasher: server.server.passwordHasher, keyRing: server.server.keyRing)
            _ = try await admin.addClient(
                ClientSpec(
                    clientID: Self.tvApp, name: "Integration TV", grantTypes: [.deviceCode, .refreshToken],
                    scopes: ["openid", "profile", "email", "offline_access"]))
            try await body(server)
        }
    }

    /// Runs the TV's sign-in, answering `decision` on the page once the code shows; the states.
    func run(
        _ tv: SesameClient, _ decision: DeviceApproval.Decision
    ) async throws -> (states: [DeviceSignIn.State], page: ScriptedBrowser.Page?) {
        var states: [DeviceSignIn.State] = []
        var page: ScriptedBrowser.Page?
        for try await state in tv.signInOnAnotherDevice(deviceName: "Kitchen TV") {
            states.append(state)
            if case .showCode(let prompt) = state, page == nil {
                // The TV polls only when asked for its next state: the person answers first, so
                // a failure on the page shows at once instead of after the codes expire.
                let approval = DeviceApproval(login: HostedLogin(username: IntegrationServer.username, password: IntegrationServer.password))
                page = try await approval.decide(decision, at: prompt.qrCodeURI)
            }
        }
        return (states, page)
    }

    @Test("approved on the page: the TV's session calls userinfo; with DPoP its token is bound")
    func approved() async throws {
        try await withTVServer { server in
            for dpop in [SesameConfiguration.DPoPBinding.off, .required] {
                let store = InMemoryCredentialStore()
                var configuration = server.configuration()
                configuration.clientID = Self.tvApp
                configuration.dpop = dpop
                let tv = SesameClient(configuration: configuration, store: store)
                let (states, page) = try await run(tv, .approve)
                #expect(page?.body.contains("Device connected") == true)
                guard case .showCode(let prompt) = states.first, case .approved(let account) = states.last else {
                    Issue.record("expected showCode … approved, got \(states)")
                    continue
                }
                #expect(UserCode(typed: prompt.userCode) != nil, "\(prompt.userCode)")
                #expect(prompt.verificationURI.absoluteString == server.issuer.absoluteString + "/device")
                let info = try await tv.userInfo(for: account.id)
                #expect(info.sub == account.subject)
                let record = try await DPoPSignInTests.stored(store, account)
                let token = try #require(record["accessToken"] as? String)
                let cnf = JWTParts.payload(token)["cnf"]
                #expect((cnf != nil) == (dpop == .required), "DPoP \(dpop): cnf \(String(describing: cnf))")
                #expect(((record["tokenType"] as? String)?.lowercased() == "dpop") == (dpop == .required))
            }
        }
    }

    @Test("denied on the page: the sequence ends with denied and nothing is stored")
    func denied() async throws {
        try await withTVServer { server in
            let tv = server.sdk(clientID: Self.tvApp)
            let (states, page) = try await run(tv, .deny)
            #expect(page?.body.contains("Request denied") == true)
            #expect(states.last == .denied, "\(states)")
            #expect(await tv.currentAccount() == nil)
        }
    }
}
