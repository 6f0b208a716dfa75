import Foundation
import Logging
import SesameProtocol
import Synchronization
import TestSupport
import Testing

@testable import Sesame

/// `SesameClient.signInOnAnotherDevice` (RFC 8628) against a scripted provider: the states, the
/// poll schedule (an injected sleeper records the waits and moves the clock, so nothing sleeps),
/// cancellation, and the checks of the device authorization response.
@Suite("Sign in on another device (RFC 8628)")
struct DeviceSignInTests {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_750_000_000))

    func setUp(_ script: DeviceGrantProvider.Script = .init(), dpop: SesameConfiguration.DPoPBinding = .off)
        -> (DeviceGrantProvider, SesameClient, RecordingSleeper)
    {
        let fake = FakeProvider(clock: clock)
        let provider = DeviceGrantProvider(fake, script: script)
        var configuration = fake.configuration
        configuration.dpop = dpop
        let client = SesameClient(
            configuration: configuration, store: InMemoryCredentialStore(), transport: provider, clock: clock,
            logger: Logger(label: "test"), retryPolicy: .none)
        return (provider, client, RecordingSleeper(clock: clock))
    }

    func states(_ sequence: DeviceSignIn) async throws -> [DeviceSignIn.State] {
        var states: [DeviceSignIn.State] = []
        for try await state in sequence { states.append(state) }
        return states
    }

    func failure(_ body: () async throws -> Void) async -> SesameError? {
        do {
            try await body()
            Issue.record("expected a SesameError")
            return nil
        } catch let error as SesameError {
            return error
        } catch {
            Issue.record("expected a SesameError, got \(error)")
            return nil
        }
    }

    @Test("pending, slow_down, approved: the code first, a wait of 5 s, then 5 s, then 10 s after slow_down; the session is stored and current")
    func pendingSlowDownApproved() async throws {
        var script = DeviceGrantProvider.Script()
        script.answers = [.pending, .slowDown, .approve]
        let (provider, client, sleeper) = setUp(script)
        let start = clock.now()
        let events = client.events()
        let result = try await states(
            client.signInOnAnotherDevice(scopes: nil, deviceName: "Living room TV", sleep: sleeper.sleep))

        #expect(result.count == 4)
        guard case .showCode(let prompt) = result.first, case .approved(let account) = result.last else {
            Issue.record("expected showCode … approved, got \(result)")
            return
        }
        #expect(prompt.userCode == "BDFH-JKLM", "a Sesame user code is shown as §6.1 suggests")
        #expect(prompt.verificationURI.absoluteString == "https://id.test/device")
        #expect(prompt.verificationURIComplete?.absoluteString == "https://id.test/device?user_code=BDFHJKLM")
        #expect(prompt.qrCodeURI == prompt.verificationURIComplete)
        #expect(prompt.expiresAt == start.addingTimeInterval(600))
        #expect(Array(result[1...2]) == [.waiting, .waiting])
        #expect(sleeper.recorded == [5, 5, 10], "default interval 5 s, +5 s from slow_down on")

        #expect(account.subject == "user-1")
        #expect(await client.currentAccount() == account)
        #expect(try await client.idTokenClaims().nonce == nil, "the device grant's ID token has no nonce")
        var iterator = events.makeAsyncIterator()
        guard case .signedIn(let announced) = await iterator.next() else {
            Issue.record("expected signedIn")
            return
        }
        #expect(announced == account)

        // §3.1: scope, device_name and the client; §3.4: the grant type and the device code.
        let authorization = try #require(provider.authorizations.first)
        #expect(authorization.form["scope"] == "openid profile email offline_access")
        #expect(authorization.form["device_name"] == "Living room TV")
        #expect(authorization.form["client_id"] == "app")
        let polls = provider.polls
        #expect(polls.count == 3)
        for poll in polls {
            #expect(poll.form["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code")
            #expect(poll.form["device_code"] == "dc-secret")
            #expect(poll.form["client_id"] == "app")
            #expect(poll.dpopProof == nil)
        }
        #expect(polls.map { $0.at.timeIntervalSince(start) } == [5, 10, 20])
    }

    @Test("access_denied ends the sequence with .denied and no session")
    func denied() async throws {
        var script = DeviceGrantProvider.Script()
        script.answers = [.pending, .denied]
        let (provider, client, sleeper) = setUp(script)
        let result = try await states(client.signInOnAnotherDevice(scopes: nil, deviceName: nil, sleep: sleeper.sleep))
        #expect(result.dropFirst() == [.waiting, .denied])
        #expect(provider.polls.count == 2)
        #expect(provider.authorizations.first?.form["device_name"] == nil)
        #expect(await client.currentAccount() == nil)
    }

    @Test("expired_token ends the sequence with .expired")
    func expiredToken() async throws {
        var script = DeviceGrantProvider.Script()
        script.answers = [.expired]
        let (provider, client, sleeper) = setUp(script)
        let result = try await states(client.signInOnAnotherDevice(scopes: nil, deviceName: nil, sleep: sleeper.sleep))
        #expect(result.dropFirst() == [.expired])
        #expect(provider.polls.count == 1)
        #expect(await client.currentAccount() == nil)
    }

    @Test("at expires_in the device stops without polling again: the last wait is cut to the expiry")
    func expiresLocally() async throws {
        var script = DeviceGrantProvider.Script()
        script.authorization = DeviceGrantProvider.response(expiresIn: "12", interval: "5")
        let (provider, client, sleeper) = setUp(script)
        let result = try await states(client.signInOnAnotherDevice(scopes: nil, deviceName: nil, sleep: sleeper.sleep))
        #expect(result.dropFirst() == [.waiting, .waiting, .expired])
        #expect(sleeper.recorded == [5, 5, 2])
        #expect(provider.polls.count == 2)
    }

    @Test("the server's numbers are clamped: interval 0 → 1 s, a huge interval → 60 s, expires_in over an hour → one hour, absent interval → 5 s")
    func clamping() async throws {
        for (interval, expected) in [("0", 1.0), ("-7", 1.0), ("1000000000", 60.0), (nil, 5.0)] {
            var script = DeviceGrantProvider.Script()
            script.authorization = DeviceGrantProvider.response(expiresIn: "999999999", interval: interval)
            script.answers = [.approve]
            let (_, client, sleeper) = setUp(script)
            let start = clock.now()
            let result = try await states(client.signInOnAnotherDevice(scopes: nil, deviceName: nil, sleep: sleeper.sleep))
            guard case .showCode(let prompt) = result.first else {
                Issue.record("no code shown")
                continue
            }
            #expect(prompt.expiresAt == start.addingTimeInterval(3600))
            #expect(sleeper.recorded == [expected], "interval \(interval ?? "absent")")
        }
        var script = DeviceGrantProvider.Script()
        script.authorization = DeviceGrantProvider.response(expiresIn: "0")
        let (provider, client, sleeper) = setUp(script)
        let result = try await states(client.signInOnAnotherDevice(scopes: nil, deviceName: nil, sleep: sleeper.sleep))
        #expect(result.dropFirst() == [.expired], "expires_in 0 counts as 1 s: over before the first poll")
        #expect(provider.polls.isEmpty)
    }

    @Test("cancelling the consuming task stops the polling at once: the wait throws cancelled and no request follows")
    func cancellation() async throws {
        let (provider, client, _) = setUp()
        let (waiting, waitingContinuation) = AsyncStream<Int>.makeStream()
        let calls = Mutex(0)
        // The first wait returns at once; the second waits "forever", really, until cancelled.
        let sleep: DeviceSignIn.Sleep = { seconds in
            let call = calls.withLock { count -> Int in
                count += 1
                return count
            }
            waitingContinuation.yield(call)
            if call >= 2 { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
        }
        let task = Task { () -> SesameError? in
            do {
                for try await _ in client.signInOnAnotherDevice(scopes: nil, deviceName: nil, sleep: sleep) {}
                return nil
            } catch let error as SesameError {
                return error
            } catch {
                return nil
            }
        }
        for await call in waiting where call == 2 { break }
        #expect(provider.polls.count == 1)
        task.cancel()
        let error = await task.value
        #expect(error?.code == .cancelled)
        #expect(provider.polls.count == 1, "no poll after the cancellation")
        #expect(await client.currentAccount() == nil)
    }

    @Test("a task cancelled before the first element sends nothing")
    func cancelledBeforeStart() async throws {
        let (provider, client, sleeper) = setUp()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await failure {
                _ = try await states(client.signInOnAnotherDevice(scopes: nil, deviceName: nil, sleep: sleeper.sleep))
            }
        }
        #expect(await task.value?.code == .cancelled)
        #expect(provider.authorizations.isEmpty)
    }

    @Test(
        "device authorization responses that break RFC 8628 §3.2 are refused before anything is shown",
        arguments: [
            ("http verification_uri on a non-loopback host", DeviceGrantProvider.response(verificationURI: "http://id.test/device"), SesameError.Code.protocolViolation),
            ("http verification_uri_complete", DeviceGrantProvider.response(verificationURIComplete: "http://id.test/device?user_code=X"), .protocolViolation),
            ("a user name before the host", DeviceGrantProvider.response(verificationURI: "https://id.test@evil.test/device"), .protocolViolation),
            ("not a web URL", DeviceGrantProvider.response(verificationURI: "javascript:alert(1)"), .protocolViolation),
            ("empty device_code", DeviceGrantProvider.response(deviceCode: ""), .protocolViolation),
            ("huge device_code", DeviceGrantProvider.response(deviceCode: String(repeating: "d", count: 1025)), .protocolViolation),
            ("empty user_code", DeviceGrantProvider.response(userCode: ""), .protocolViolation),
            ("huge user_code", DeviceGrantProvider.response(userCode: String(repeating: "B", count: 1025)), .protocolViolation),
            ("terminal escape in user_code", DeviceGrantProvider.response(userCode: "\u{1B}[2J BDFH"), .protocolViolation),
            ("missing device_code", DeviceGrantProvider.response(deviceCode: nil), .malformedResponse),
            ("missing user_code", DeviceGrantProvider.response(userCode: nil), .malformedResponse),
            ("missing verification_uri", DeviceGrantProvider.response(verificationURI: nil), .malformedResponse),
            ("missing expires_in", DeviceGrantProvider.response(expiresIn: nil), .malformedResponse),
            ("expires_in 1e30", DeviceGrantProvider.response(expiresIn: "1e30"), .malformedResponse),
            ("interval as a string", DeviceGrantProvider.response(interval: "\"5\""), .malformedResponse),
        ])
    func refusedResponses(_ what: String, body: String, code: SesameError.Code) async throws {
        var script = DeviceGrantProvider.Script()
        script.authorization = body
        let (provider, client, sleeper) = setUp(script)
        let error = await failure {
            _ = try await states(client.signInOnAnotherDevice(scopes: nil, deviceName: nil, sleep: sleeper.sleep))
        }
        #expect(error?.code == code, "\(what): \(error.map(\.description) ?? "no error")")
        #expect(provider.polls.isEmpty, "\(what): no poll")
    }

    @Test("http verification URIs are accepted on a loopback host (development)")
    func loopbackHTTP() async throws {
        var script = DeviceGrantProvider.Script()
        script.authorization = DeviceGrantProvider.response(
            userCode: "123-456", verificationURI: "http://127.0.0.1:8080/device", verificationURIComplete: nil)
        script.answers = [.approve]
        let (_, client, sleeper) = setUp(script)
        let result = try await states(client.signInOnAnotherDevice(scopes: nil, deviceName: nil, sleep: sleeper.sleep))
        guard case .showCode(let prompt) = result.first else {
            Issue.record("no code shown")
            return
        }
        #expect(prompt.userCode == "123-456", "another provider's code is shown as sent")
        #expect(prompt.qrCodeURI.absoluteString == "http://127.0.0.1:8080/device")
        if case .approved = result.last {} else { Issue.record("not approved: \(result)") }
    }

    @Test("a provider without device_authorization_endpoint: invalidConfiguration saying what to do, nothing sent")
    func noEndpoint() async throws {
        var script = DeviceGrantProvider.Script()
        script.advertisesEndpoint = false
        let (provider, client, sleeper) = setUp(script)
        let error = await failure {
            _ = try await states(client.signInOnAnotherDevice(scopes: nil, deviceName: nil, sleep: sleeper.sleep))
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.description.contains("device_authorization_endpoint") == true)
        #expect(error?.description.contains("enable the device authorization grant") == true)
        #expect(provider.authorizations.isEmpty)
    }

    @Test("the device authorization endpoint's refusal and other token errors are thrown as the server's errors")
    func serverErrors() async throws {
        var script = DeviceGrantProvider.Script()
        script.authorization = #"{"error": "unauthorized_client", "error_description": "the device grant is not enabled for this client"}"#
        script.authorizationStatus = 400
        let (_, client, sleeper) = setUp(script)
        let refused = await failure {
            _ = try await states(client.signInOnAnotherDevice(scopes: nil, deviceName: nil, sleep: sleeper.sleep))
        }
        #expect(refused?.code == .requestFailed)
        #expect(refused?.apiError?.error == "unauthorized_client")

        var polling = DeviceGrantProvider.Script()
        polling.answers = [.pending, .error(status: 400, error: "invalid_grant")]
        let (provider, pollingClient, pollingSleeper) = setUp(polling)
        var seen: [DeviceSignIn.State] = []
        let error = await failure {
            for try await state in pollingClient.signInOnAnotherDevice(scopes: nil, deviceName: nil, sleep: pollingSleeper.sleep) {
                seen.append(state)
            }
        }
        #expect(error?.code == .authenticationFailed)
        #expect(seen.dropFirst() == [.waiting])
        #expect(provider.polls.count == 2)
    }

    @Test("the iterator ends after its final state or an error: next() gives nil")
    func endsAfterFinalState() async throws {
        var script = DeviceGrantProvider.Script()
        script.answers = [.denied]
        let (provider, client, sleeper) = setUp(script)
        var iterator = client.signInOnAnotherDevice(scopes: nil, deviceName: nil, sleep: sleeper.sleep).makeAsyncIterator()
        _ = try await iterator.next()
        #expect(try await iterator.next() == .denied)
        #expect(try await iterator.next() == nil)
        #expect(provider.polls.count == 1)
    }

    @Test("an unusable device name or scopes without openid are refused before any request")
    func refusedArguments() async throws {
        let (provider, client, sleeper) = setUp()
        for name in [String(repeating: "x", count: 65), "TV\u{7}", "TV\u{202E}"] {
            let error = await failure {
                _ = try await states(client.signInOnAnotherDevice(scopes: nil, deviceName: name, sleep: sleeper.sleep))
            }
            #expect(error?.code == .invalidConfiguration)
        }
        let error = await failure {
            _ = try await states(client.signInOnAnotherDevice(scopes: ["profile"], deviceName: nil, sleep: sleeper.sleep))
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(provider.authorizations.isEmpty)
    }

    @Test("with DPoP each poll carries a proof of one key; the device authorization request none")
    func dpopProofs() async throws {
        var script = DeviceGrantProvider.Script()
        script.discoveryExtras = ["dpop_signing_alg_values_supported": "ES256"]
        script.answers = [.pending, .approve]
        let (provider, client, sleeper) = setUp(script, dpop: .required)
        let result = try await states(client.signInOnAnotherDevice(scopes: nil, deviceName: nil, sleep: sleeper.sleep))
        if case .approved = result.last {} else { Issue.record("not approved: \(result)") }
        #expect(provider.authorizations.first?.dpopProof == nil)
        let keys = try provider.polls.map { poll -> String in
            let proof = try #require(poll.dpopProof)
            let header = try #require(proof.split(separator: ".").first.flatMap { Base64URL.decode(String($0)) })
            let object = try #require(try JSONSerialization.jsonObject(with: header) as? [String: Any])
            let jwk = try #require(object["jwk"] as? [String: Any])
            return "\(jwk["x"] ?? "").\(jwk["y"] ?? "")"
        }
        #expect(keys.count == 2)
        #expect(Set(keys).count == 1, "every poll is signed with the same key")
    }

    @Test("polls lost in transit are retried with exponential backoff (RFC 8628 section 3.5), then the interval returns")
    func lostPollsBackOff() async throws {
        var script = DeviceGrantProvider.Script()
        script.answers = [.lost, .lost, .lost, .pending, .approve]
        let (provider, client, sleeper) = setUp(script)
        let result = try await states(client.signInOnAnotherDevice(scopes: nil, deviceName: nil, sleep: sleeper.sleep))
        guard case .approved = result.last else {
            Issue.record("expected approved, got \(result)")
            return
        }
        #expect(Array(result.dropFirst().dropLast()) == [.waiting, .waiting, .waiting, .waiting])
        #expect(sleeper.recorded == [5, 10, 20, 40, 5], "5 s, then doubling after each lost poll, then 5 s again")
        #expect(provider.polls.count == 5)
    }
}

