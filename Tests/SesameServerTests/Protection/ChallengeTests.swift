import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import TestSupport
import Testing
@testable import SesameServer

/// Proof-of-work and clear-pass challenges (``ChallengeGate``) against the real server over
/// HTTP, with several client addresses through a trusted proxy's `X-Forwarded-For`: a spray of
/// wrong passwords from one address is challenged, another address is not; a solution lets the
/// request through once; expired, reused, forged, wrong-nonce and other-request solutions are
/// refused with their reason; every decision is in the audit log, with no secret in it.
@Suite("Proof-of-work challenges")
struct ChallengeTests {
    static let sprayer = "198.51.100.7"
    static let realUser = "203.0.113.9"
    static let wrong = "not the password at all"

    /// Automatic challenges from 4 failed passwords per address, 8 bits, at most 10.
    static let configure: @Sendable (inout ServerConfiguration) -> Void = {
        $0.challenges = ChallengePolicy(baseDifficulty: 8, maximumDifficulty: 10, failureThreshold: 4)
        $0.trustedProxies = try! TrustedProxies(parsing: ["127.0.0.1"])
    }

    static func from(_ address: String, _ headers: [String: String] = [:]) -> [String: String] {
        headers.merging(["X-Forwarded-For": address]) { $1 }
    }

    /// A nonce that solves `challenge` (brute force; the tests' difficulties are small).
    static func solve(_ challenge: ProofOfWorkChallenge) throws -> ProofOfWorkSolution {
        let seed = try #require(challenge.seedBytes)
        var nonce: UInt64 = 0
        while !ProofOfWork.isSolution(seed: seed, nonce: nonce, difficulty: challenge.difficulty) { nonce += 1 }
        return ProofOfWorkSolution(token: challenge.token, nonce: nonce)
    }

    /// A nonce that does not solve it.
    static func nonSolution(_ challenge: ProofOfWorkChallenge) throws -> ProofOfWorkSolution {
        let seed = try #require(challenge.seedBytes)
        var nonce: UInt64 = 1
        while ProofOfWork.isSolution(seed: seed, nonce: nonce, difficulty: challenge.difficulty) { nonce += 1 }
        return ProofOfWorkSolution(token: challenge.token, nonce: nonce)
    }

    /// The challenge of a 429 answer, checked for shape.
    static func challenge(
        of response: TestResponse, code: APIErrorCode = .proofOfWorkRequired, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProofOfWorkChallenge {
        #expect(response.status == 429, "\(response.text)", sourceLocation: sourceLocation)
        let error = try response.json(APIError.self)
        #expect(error.code == code, "\(response.text)", sourceLocation: sourceLocation)
        #expect(error.error == "proof_of_work_required", sourceLocation: sourceLocation)
        #expect(error.errorUserMessage?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
        return try #require(error.challenge, sourceLocation: sourceLocation)
    }

    static func send(
        _ flow: ChallengeFlow, username: String = Fixtures.username, password: String = Fixtures.password,
        from address: String, solution: ProofOfWorkSolution? = nil
    ) async throws -> TestResponse {
        var headers = from(address)
        if let solution { headers[ProofOfWorkSolution.headerName] = solution.headerValue }
        return try await flow.start(username: username, password: password, headers: headers)
    }

    @Test(
        "a spray of wrong passwords is challenged, another address is not; a solution lets the sign-in through once; every refusal says why; the audit log has each decision and no secret",
        arguments: StoreBackend.available)
    func spray(backend: StoreBackend) async throws {
        try await withTestServer(backend, configure: Self.configure) { server in
            server.clock.freeze()
            let flow = ChallengeFlow(server)
            for index in 0..<4 {
                let response = try await Self.send(flow, username: "sprayed\(index)", password: Self.wrong, from: Self.sprayer)
                #expect(try ChallengeFlow.error(response).code == .invalidCredentials, "attempt \(index)")
            }

            // The source now looks automated: the right password is not even checked.
            let challenged = try await Self.send(flow, from: Self.sprayer)
            let challenge = try Self.challenge(of: challenged)
            #expect(challenge.kind == .proofOfWork)
            #expect(challenge.algorithm == "SHA-256")
            #expect(challenge.difficulty == 8)
            #expect(challenge.seedBytes?.count == 56)
            #expect(challenge.expiresAt == Int((server.clock.now().timeIntervalSince1970 + 120).rounded(.up)))

            // A real user elsewhere is not bothered.
            _ = try ChallengeFlow.code(try await Self.send(flow, from: Self.realUser))

            // The solution lets the same request through, once.
            let solution = try Self.solve(challenge)
            _ = try ChallengeFlow.code(try await Self.send(flow, from: Self.sprayer, solution: solution))
            let replay = try await Self.send(flow, from: Self.sprayer, solution: solution)
            let afterReplay = try Self.challenge(of: replay, code: .invalidChallengeSolution)
            #expect(try replay.json(APIError.self).errorDescription?.contains("reused") == true)

            // Solved for another login name: refused.
            let otherName = try await Self.send(flow, username: "bob", from: Self.sprayer, solution: try Self.solve(afterReplay))
            let afterOther = try Self.challenge(of: otherName, code: .invalidChallengeSolution)
            #expect(try otherName.json(APIError.self).errorDescription?.contains("rule other_request") == true)

            // A nonce that does not give the zero bits: refused.
            let wrongNonce = try await Self.send(flow, username: "bob", from: Self.sprayer, solution: try Self.nonSolution(afterOther))
            let afterWrong = try Self.challenge(of: wrongNonce, code: .invalidChallengeSolution)

            // Forged: the payload changed (a lower difficulty), or the MAC.
            var forged = try Self.solve(afterWrong)
            let parts = forged.token.split(separator: ".").map(String.init)
            var payload = try #require(Base64URL.decode(parts[0]).flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: Any] })
            payload["d"] = 1
            forged.token = Base64URL.encode(try JSONSerialization.data(withJSONObject: payload)) + "." + parts[1]
            _ = try Self.challenge(of: try await Self.send(flow, from: Self.sprayer, solution: forged), code: .invalidChallengeSolution)
            var badMAC = try Self.solve(afterWrong)
            badMAC.token = parts[0] + "." + String(parts[1].reversed())
            let afterForged = try Self.challenge(
                of: try await Self.send(flow, from: Self.sprayer, solution: badMAC), code: .invalidChallengeSolution)

            // Expired: solved, then presented after its lifetime.
            let late = try Self.solve(afterForged)
            server.clock.advance(by: 121)
            _ = try Self.challenge(of: try await Self.send(flow, from: Self.sprayer, solution: late), code: .invalidChallengeSolution)

            // The audit log has every decision, with its reason.
            await server.running.flushAuditLog()
            let log = server.store
            let records = try await log.auditRecords(AuditQuery())
            let events = records.map(\.event)
            #expect(events.filter { $0 == "sign_in.failed" }.count == 4)
            #expect(events.filter { $0 == "sign_in.succeeded" }.count == 2)
            #expect(events.filter { $0 == "challenge.solved" }.count == 1)
            let refusals = records.filter { $0.event == "challenge.refused" }.compactMap(\.reason)
            #expect(refusals == ["reused", "other_request", "wrong_nonce", "forged", "forged", "expired"])
            #expect(events.filter { $0 == "challenge.issued" }.count == 7)
            let sprayed = records.filter { $0.event == "sign_in.failed" }
            #expect(sprayed.allSatisfy { $0.clientAddress == Self.sprayer && $0.clientID == Fixtures.nativeApp && $0.requestID != nil })
            let issued = try #require(records.first { $0.event == "challenge.issued" })
            #expect(issued.detail["difficulty"] == "8" && issued.detail["failures"] == "4" && issued.detail["endpoint"] == "sign_in")

            // No secret in any record: passwords, challenge tokens, nonces.
            let text = String(decoding: try JSONEncoder().encode(records), as: UTF8.self)
            for secret in [Fixtures.password, Self.wrong, challenge.token, solution.headerValue, challenge.seed] {
                #expect(!text.contains(secret), "an audit record holds a secret")
            }
        }
    }

    @Test("difficulty rises with the pressure and stops at the cap")
    func difficultyRises() async throws {
        try await withTestServer(configure: Self.configure) { server in
            server.clock.freeze()
            let flow = ChallengeFlow(server)
            var difficulties: [Int] = []
            for index in 0..<16 {
                let response = try await Self.send(flow, username: "n\(index)", password: Self.wrong, from: Self.sprayer)
                if response.status == 429 {
                    // Solve it, and fail the password for real: the failures keep counting.
                    let challenge = try Self.challenge(of: response)
                    difficulties.append(challenge.difficulty)
                    let solved = try await Self.send(
                        flow, username: "n\(index)", password: Self.wrong, from: Self.sprayer, solution: try Self.solve(challenge))
                    #expect(try ChallengeFlow.error(solved).code == .invalidCredentials)
                }
            }
            // Failures 4–7: 8 bits; 8–15: 9 bits; 16 and on: 10 (the cap).
            #expect(difficulties == [8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9])
            let capped = try Self.challenge(of: try await Self.send(flow, username: "x", password: Self.wrong, from: Self.sprayer))
            #expect(capped.difficulty == 10)
            #expect(try await Self.send(flow, username: "y", password: Self.wrong, from: Self.realUser).status == 400)
        }
    }

    @Test("always mode with clear pass: every sign-up answers 429 with a clear pass; <token>:0 lets it through, once; without a solution no account and no mail")
    func clearPass() async throws {
        try await withTestServer(configure: {
            $0.challenges = ChallengePolicy(modes: [.signUp: .always], kind: .clearPass)
        }) { server in
            let client = server.client()
            let body = try JSONSerialization.data(withJSONObject: [
                "client_id": Fixtures.nativeApp, "email": "newcomer@example.com", "password": "a long sign-up password",
            ])
            let headers = ["Content-Type": "application/json"]
            let challenged = try await client.post("/api/signup", body: body, headers: headers)
            let challenge = try Self.challenge(of: challenged)
            #expect(challenge.kind == .clearPass && challenge.difficulty == 0 && challenge.seed.isEmpty)
            #expect(try await server.store.user(login: "newcomer@example.com") == nil)
            let outbox = try #require(server.running.messageSender as? OutboxMessageSender)
            #expect(try await outbox.messages(to: "newcomer@example.com", purpose: nil).isEmpty)

            let pass = ProofOfWorkSolution(token: challenge.token, nonce: 0).headerValue
            let created = try await client.post(
                "/api/signup", body: body, headers: headers.merging([ProofOfWorkSolution.headerName: pass]) { $1 })
            #expect(created.status == 201, "\(created.text)")
            #expect(try await outbox.messages(to: "newcomer@example.com", purpose: nil).count == 1)
            // Solved for newcomer@, not for another address.
            let other = try JSONSerialization.data(withJSONObject: [
                "client_id": Fixtures.nativeApp, "email": "second@example.com", "password": "a long sign-up password",
            ])
            let refused = try await client.post(
                "/api/signup", body: other, headers: headers.merging([ProofOfWorkSolution.headerName: pass]) { $1 })
            _ = try Self.challenge(of: refused, code: .invalidChallengeSolution)
            // Sign-in and password reset stay automatic: not challenged.
            let flow = ChallengeFlow(server)
            _ = try ChallengeFlow.code(try await flow.start())
        }
    }

    @Test("password reset floods from one address are challenged; the reset mail is not sent until solved")
    func passwordResetFlood() async throws {
        try await withTestServer(configure: {
            $0.challenges = ChallengePolicy(baseDifficulty: 6, requestThresholds: [.passwordReset: 2])
            $0.trustedProxies = try! TrustedProxies(parsing: ["127.0.0.1"])
        }) { server in
            // Counts are per aligned window: a frozen clock keeps both requests in one.
            server.clock.freeze()
            let client = server.client()
            let body = try JSONSerialization.data(withJSONObject: ["email": Fixtures.email])
            let headers = Self.from(Self.sprayer, ["Content-Type": "application/json"])
            #expect(try await client.post("/api/password/reset", body: body, headers: headers).status == 202)
            let challenged = try await client.post("/api/password/reset", body: body, headers: headers)
            let challenge = try Self.challenge(of: challenged)
            #expect(challenge.difficulty == 6)
            let outbox = try #require(server.running.messageSender as? OutboxMessageSender)
            #expect(try await outbox.messages(to: Fixtures.email, purpose: "password_reset").count == 1)
            let solved = try await client.post(
                "/api/password/reset", body: body,
                headers: headers.merging([ProofOfWorkSolution.headerName: try Self.solve(challenge).headerValue]) { $1 })
            #expect(solved.status == 202)
            #expect(try await outbox.messages(to: Fixtures.email, purpose: "password_reset").count == 2)
        }
    }

    @Test("two servers on one PostgreSQL database: a solution redeemed at one is refused as reused at the other")
    func sharedSingleUse() async throws {
        guard StoreBackend.available.contains(.postgres) else { return }
        try await withTwoServers(configure: {
            $0.challenges = ChallengePolicy(modes: [.signIn: .always], baseDifficulty: 6)
        }) { first, second in
            let flowA = ChallengeFlow(first)
            let flowB = ChallengeFlow(second, http: second.portClient())
            let challenge = try Self.challenge(of: try await flowA.start())
            let solution = try Self.solve(challenge)
            let headers = [ProofOfWorkSolution.headerName: solution.headerValue]
            // Issued by the first process, accepted by the second (one master key), once.
            _ = try ChallengeFlow.code(try await flowB.start(headers: headers))
            let replay = try await flowA.start(headers: headers)
            _ = try Self.challenge(of: replay, code: .invalidChallengeSolution)
            #expect(try replay.json(APIError.self).errorDescription?.contains("reused") == true)
        }
    }

    @Test("hosted pages: the sign-up page carries the challenge, its first-party solver script and a noscript note under CSP script-src 'self'; without the nonce the page comes back (429), with it the account is made")
    func hostedSignUpPage() async throws {
        try await withTestServer(configure: {
            $0.challenges = ChallengePolicy(modes: [.signUp: .always, .passwordReset: .always], baseDifficulty: 6)
        }) { server in
            let browser = server.client()
            let page = try await browser.get("/signup")
            #expect(page.status == 200)
            #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'; worker-src 'self'") == true)
            #expect(page.text.contains(#"<script src="/assets/challenge.js"></script>"#))
            #expect(page.text.contains("<noscript><p class=\"error\">This page needs JavaScript"))
            let challenge = try Self.pageChallenge(page)
            #expect(challenge.difficulty == 6)

            let form = HTMLForm(html: page.text)
            let values = ["email": "hosted@example.com", "password": "a long hosted passphrase"]
            let unsolved = try await browser.postForm(form.action, form.fields.merging(values) { $1 })
            #expect(unsolved.status == 429)
            #expect(unsolved.text.contains("An extra security check is needed"))
            #expect(try Self.pageChallenge(unsolved).token != challenge.token, "a new challenge")
            #expect(try await server.store.user(login: "hosted@example.com") == nil)

            let nonce = String(try Self.solve(challenge).nonce)
            let solved = try await browser.postForm(
                form.action, form.fields.merging(values) { $1 }.merging(["challenge_nonce": nonce]) { $1 })
            #expect(solved.status == 200, "\(solved.text)")
            #expect(try await server.store.user(login: "hosted@example.com") != nil)

            // The reset page too; the login page is not challenged (sign-in stays automatic).
            #expect(try await browser.get("/password-reset").text.contains("challenge_token"))
            let script = try await browser.get("/assets/challenge.js")
            #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(script.text.contains("new Worker('/assets/challenge-worker.js')"))
            let worker = try await browser.get("/assets/challenge-worker.js")
            #expect(worker.text.contains("crypto.subtle.digest('SHA-256'"))
        }
    }

    /// The challenge a hosted page carries (its hidden token and data attributes).
    static func pageChallenge(_ page: TestResponse) throws -> ProofOfWorkChallenge {
        let token = try #require(HTMLForm(html: page.text).fields["challenge_token"], "no challenge on the page")
        func attribute(_ name: String) throws -> String {
            let start = try #require(page.text.range(of: "\(name)=\""))
            return String(page.text[start.upperBound...].prefix { $0 != "\"" })
        }
        return ProofOfWorkChallenge(
            kind: .proofOfWork, token: token, seed: try attribute("data-seed"),
            difficulty: Int(try attribute("data-difficulty")) ?? -1, expiresAt: 0)
    }
}
