import Foundation
import SesameProtocol
import SesameServer
import SesameStore
import SesameTesting
import StoreTesting
import Testing

/// The device grant attacked (RFC 8628 §5): guessed user codes, a link that tries to approve on
/// its own, a forged or replayed answer, and the one-time values raced on two server processes
/// sharing PostgreSQL.
@Suite("Device authorization grant under attack (RFC 8628 section 5)")
struct DeviceAuthorizationAttackTests {
    @Test("wrong user codes lock the address out (even the right code is then refused), across two processes",
        .needsPostgreSQL)
    func guessedCodesLockOut() async throws {
        try await withTwoServers { first, second in
            try await DeviceFlow.registerTV(on: first)
            let codes = try await DeviceFlow(device: first.client()).codes()
            let approvers = [DeviceApprover(browser: first.client()), DeviceApprover(browser: second.portClient())]
            var guess = UserCode.random()
            for attempt in 0..<10 {
                while guess.normalized == UserCode(typed: codes.userCode)?.normalized { guess = UserCode.random() }
                let wrong = try await approvers[attempt % 2].enter(guess.description)
                #expect(wrong.status == 400, "wrong code \(attempt + 1): \(wrong.status)")
                guess = UserCode.random()
            }
            // A malformed code is said to be one, and is not counted.
            let malformed = try await approvers[0].enter("not a code")
            #expect(malformed.status == 400 && malformed.text.contains("8 letters"))
            // The eleventh attempt, with the right code, on either process: refused unread.
            for approver in approvers {
                let locked = try await approver.enter(codes.userCode)
                #expect(locked.status == 429, "\(locked.status) \(locked.text.prefix(300))")
                #expect(Int(locked.header("Retry-After") ?? "") ?? 0 > 800)
            }
            first.clock.advance(by: 15 * 60 + 1)
            let fresh = try await DeviceFlow(device: first.client()).codes()
            let later = try await approvers[1].enter(fresh.userCode)
            #expect(later.status == 303, "the lockout ends: \(later.status)")
        }
    }

    @Test(
        "20 wrong codes at once over two processes: exactly 10 are checked, the rest refused unchecked",
        .needsPostgreSQL)
    func guessesAtOnce() async throws {
        try await withTwoServers { first, second in
            try await DeviceFlow.registerTV(on: first)
            // One code form per process (its CSRF token), then every guess posted at once.
            var forms: [[String: String]] = []
            let clients = [first.client(), second.portClient()]
            for client in clients {
                let page = try await client.get("/device")
                var fields = HTMLForm(html: page.text).fields
                fields["user_code"] = "BBBB-BBBB"
                forms.append(fields)
            }
            let prepared = forms
            let statuses = try await statusesAtOnce(20, over: clients) { client in
                try await client.postForm("/device", client === clients[0] ? prepared[0] : prepared[1]).status
            }
            #expect(statuses.filter { $0 == 400 }.count == 10, "checked: \(statuses)")
            #expect(statuses.filter { $0 == 429 }.count == 10, "refused unchecked: \(statuses)")
        }
    }

    @Test("wrong codes from many addresses hit the deployment-wide limit")
    func deploymentWideLimit() async throws {
        try await withTestServer(configure: {
            $0.deviceAuthorization.failuresPerAddress = 1_000
            $0.deviceAuthorization.failuresDeploymentWide = 5
        }) { server in
            try await DeviceFlow.registerTV(on: server)
            let codes = try await DeviceFlow(device: server.client()).codes()
            let approver = DeviceApprover(browser: server.client())
            for _ in 0..<5 { #expect(try await approver.enter("BBBB-BBBB").status == 400) }
            #expect(try await approver.enter(codes.userCode).status == 429)
            server.clock.advance(by: 61)
            #expect(try await approver.enter(codes.userCode).status == 303, "a new minute")
        }
    }

    @Test("verification_uri_complete fills the code in and approves nothing, even with a signed-in browser")
    func linkNeverApproves() async throws {
        try await withTestServer { server in
            try await DeviceFlow.registerTV(on: server)
            let flow = DeviceFlow(device: server.client())
            let browser = server.client()
            // The browser is signed in already (SSO session).
            _ = try await OAuthFlow(browser: browser).tokens()
            let codes = try await flow.codes()
            let complete = try #require(codes.verificationURIComplete)
            let page = try await browser.get(complete.absoluteString)
            #expect(page.status == 200)
            #expect(HTMLForm(html: page.text).fields["user_code"] == codes.userCode)
            #expect(DeviceFlow.error(try await flow.poll(codes.deviceCode)) == "authorization_pending")
            // Through the code form and the SSO session to the question: still nothing approved.
            let approver = DeviceApprover(browser: browser)
            let question = try await approver.signIn(after: try await approver.enter(codes.userCode))
            #expect(question.status == 200 && question.text.contains("/device/decision"))
            server.clock.advance(by: 6)
            #expect(DeviceFlow.error(try await flow.poll(codes.deviceCode)) == "authorization_pending")
        }
    }

    @Test("a forged, replayed or cross-site answer decides nothing")
    func forgedAnswers() async throws {
        try await withTestServer { server in
            try await DeviceFlow.registerTV(on: server)
            let flow = DeviceFlow(device: server.client())
            let codes = try await flow.codes()
            let browser = server.client()
            let fields = try await DeviceApprover(browser: browser).answerForm(for: codes.userCode, "approve")

            // Without the CSRF token (another site's form): refused.
            var noCSRF = fields
            noCSRF["csrf_token"] = nil
            #expect(try await browser.postForm("/device/decision", noCSRF).status == 403)
            // A code of an ordinary sign-in of the same user, not this request's: refused.
            var foreign = fields
            foreign["code"] = try await OAuthFlow(browser: browser).signIn(OAuthFlow.Attempt())
            #expect(try await browser.postForm("/device/decision", foreign).status == 400)
            // Another request's state with this code: refused.
            let other = try await flow.codes()
            var swapped = fields
            swapped["state"] = SecretDigest.of(try #require(UserCode(typed: other.userCode)).normalized)
            #expect(try await browser.postForm("/device/decision", swapped).status == 400)
            // An unknown decision.
            var odd = fields
            odd["decision"] = "maybe"
            #expect(try await browser.postForm("/device/decision", odd).status == 400)
            server.clock.advance(by: 6)
            #expect(DeviceFlow.error(try await flow.poll(codes.deviceCode)) == "authorization_pending")
            #expect(DeviceFlow.error(try await flow.poll(other.deviceCode)) == "authorization_pending")
        }
    }

    @Test("approved on one process, redeemed on the other; 20 polls at once over both get exactly one token response",
        .needsPostgreSQL)
    func twoProcesses() async throws {
        try await withTwoServers { first, second in
            try await DeviceFlow.registerTV(on: first)
            let codes = try await DeviceFlow(device: first.client()).codes()
            let page = try await DeviceApprover(browser: first.client()).decide(codes.userCode)
            #expect(page.status == 200, "\(page.text)")
            let clients = [first.client(), second.portClient()]
            let statuses = try await statusesAtOnce(20, over: clients) { client in
                try await DeviceFlow(device: client).poll(codes.deviceCode).status
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 400 }.count == 19)

            // Two polls at once on two processes of a pending request: one is slow_down.
            let pending = try await DeviceFlow(device: second.portClient()).codes()
            let answers = try await withThrowingTaskGroup(of: String?.self) { group in
                for client in clients { group.addTask { DeviceFlow.error(try await DeviceFlow(device: client).poll(pending.deviceCode)) } }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(answers.sorted { ($0 ?? "") < ($1 ?? "") } == ["authorization_pending", "slow_down"])
        }
    }

    @Test("the same decision sent 20 times at once is recorded once")
    func decisionRace() async throws {
        try await withTestServer { server in
            try await DeviceFlow.registerTV(on: server)
            let flow = DeviceFlow(device: server.client())
            let codes = try await flow.codes()
            let browser = server.client()
            let form = try await DeviceApprover(browser: browser).answerForm(for: codes.userCode, "approve")
            let statuses = try await statusesAtOnce(20, over: [browser]) { client in
                try await client.postForm("/device/decision", form).status
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            let granted = try await flow.poll(codes.deviceCode)
            #expect(granted.status == 200)
        }
    }
}
