import Foundation
import SesameProtocol
import SesameServer
import SesameStore
import SesameTesting
import StoreTesting
import Testing

/// The device authorization grant (RFC 8628, issue #33) over real HTTP against the real server:
/// the device's requests and polls, a person approving or denying on `/device`, and every
/// answer §3.5 names.
@Suite("Device authorization grant (RFC 8628)")
struct DeviceAuthorizationGrantTests {
    @Test("a TV's request, a person approves on /device, the next poll gets tokens (once)", arguments: StoreBackend.available)
    func approvedFlow(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            try await DeviceFlow.registerTV(on: server)
            let discovery = try await server.client().get("/.well-known/openid-configuration")
            let metadata = try discovery.json(ProviderMetadata.self)
            #expect(metadata.deviceAuthorizationEndpoint?.absoluteString == server.issuer + "/device_authorization")
            #expect(metadata.grantTypesSupported?.contains(DeviceAuthorization.grantType) == true)

            let flow = DeviceFlow(device: server.client())
            let started = try await flow.start(extra: ["device_name": "Living room"])
            #expect(started.status == 200, "\(started.text)")
            #expect(started.header("Cache-Control") == "no-store")
            let codes = try started.json(DeviceAuthorizationResponse.self)
            #expect(codes.verificationURI.absoluteString == server.issuer + "/device")
            #expect(codes.verificationURIComplete?.absoluteString == server.issuer + "/device?user_code=" + codes.userCode)
            #expect(codes.expiresIn == 600 && codes.interval == 5)
            #expect(Base64URL.decode(codes.deviceCode)?.count == 32, "a 256-bit device code")
            let userCode = try #require(UserCode(typed: codes.userCode))
            #expect(codes.userCode == userCode.description && codes.userCode.count == 9)

            let pending = try await flow.poll(codes.deviceCode)
            #expect(pending.status == 400 && DeviceFlow.error(pending) == "authorization_pending", "\(pending.text)")

            // The person types the code in lower case with spaces: still the code (§6.1).
            let approver = DeviceApprover(browser: server.client())
            let entered = try await approver.enter(userCode.normalized.lowercased().map(String.init).joined(separator: " "))
            let question = try await approver.signIn(after: entered)
            #expect(question.text.contains(DeviceFlow.tvName), "the page names the app")
            #expect(question.text.contains("Living room"), "and the device's own name")
            #expect(question.text.contains("offline_access"), "and what it asks for")
            #expect(question.text.contains(Fixtures.email), "and the account")
            server.clock.advance(by: 6)
            let stillPending = try await flow.poll(codes.deviceCode)
            #expect(DeviceFlow.error(stillPending) == "authorization_pending", "signing in alone approves nothing")

            let done = try await approver.answer(question, "approve")
            #expect(done.status == 200, "\(done.text)")
            server.clock.advance(by: 6)
            let granted = try await flow.poll(codes.deviceCode)
            #expect(granted.status == 200, "\(granted.text)")
            let tokens = try granted.json(TokenResponse.self)
            #expect(tokens.refreshToken != nil && tokens.scope == "openid profile offline_access")
            let idToken = JWTParts.payload(try #require(tokens.idToken))
            #expect(idToken["aud"] as? String == DeviceFlow.tvApp)
            #expect(idToken["nonce"] == nil)
            #expect(idToken["amr"] as? [String] == ["pwd"], "the approving sign-in's amr")
            let userInfo = try await server.client().userInfo(tokens.accessToken)
            #expect(userInfo.status == 200)
            let refreshed = try await server.client().refresh(try #require(tokens.refreshToken), clientID: DeviceFlow.tvApp)
            #expect(refreshed.status == 200, "\(refreshed.text)")

            server.clock.advance(by: 6)
            let again = try await flow.poll(codes.deviceCode)
            #expect(again.status == 400 && DeviceFlow.error(again) == "invalid_grant", "tokens are issued once")
        }
    }

    @Test("polling sooner than the interval is slow_down, and the interval grows by 5 s each time")
    func slowDown() async throws {
        try await withTestServer { server in
            try await DeviceFlow.registerTV(on: server)
            let flow = DeviceFlow(device: server.client())
            let codes = try await flow.codes()
            #expect(DeviceFlow.error(try await flow.poll(codes.deviceCode)) == "authorization_pending")
            #expect(DeviceFlow.error(try await flow.poll(codes.deviceCode)) == "slow_down", "at once")
            server.clock.advance(by: 6)
            #expect(DeviceFlow.error(try await flow.poll(codes.deviceCode)) == "slow_down", "6 s is too soon after a slow_down (10 s)")
            server.clock.advance(by: 16)
            #expect(DeviceFlow.error(try await flow.poll(codes.deviceCode)) == "authorization_pending", "15 s is the interval now")
            server.clock.advance(by: 14.5)
            #expect(DeviceFlow.error(try await flow.poll(codes.deviceCode)) == "authorization_pending", "1 s early is tolerated")
        }
    }

    @Test("a denied request answers access_denied; an expired one expired_token; an unknown one invalid_grant")
    func deniedAndExpired() async throws {
        try await withTestServer { server in
            try await DeviceFlow.registerTV(on: server)
            let flow = DeviceFlow(device: server.client())
            let denied = try await flow.codes()
            let page = try await DeviceApprover(browser: server.client()).decide(denied.userCode, "deny")
            #expect(page.status == 200, "\(page.text)")
            let refused = try await flow.poll(denied.deviceCode)
            #expect(refused.status == 400 && DeviceFlow.error(refused) == "access_denied", "\(refused.text)")

            let late = try await flow.codes()
            server.clock.advance(by: 601)
            let expired = try await flow.poll(late.deviceCode)
            #expect(expired.status == 400 && DeviceFlow.error(expired) == "expired_token", "\(expired.text)")
            // Too late on the page too: the code form no longer finds it.
            let typed = try await DeviceApprover(browser: server.client()).enter(late.userCode)
            #expect(typed.status == 400 && typed.text.contains("unknown or has expired"))

            let unknown = try await flow.poll(SecureRandom.token())
            #expect(DeviceFlow.error(unknown) == "invalid_grant")
            let missing = try await server.client().postForm(
                "/token", ["grant_type": DeviceAuthorization.grantType, "client_id": DeviceFlow.tvApp])
            #expect(DeviceFlow.error(missing) == "invalid_request")
        }
    }

    @Test("requests that are refused: a client without the grant, a scope it may not ask for, a bad device_name, another client's device code")
    func refusals() async throws {
        try await withTestServer { server in
            try await DeviceFlow.registerTV(on: server)
            let flow = DeviceFlow(device: server.client())
            let notRegistered = try await DeviceFlow(device: server.client(), clientID: Fixtures.nativeApp).start()
            #expect(notRegistered.status == 400 && DeviceFlow.error(notRegistered) == "unauthorized_client", "\(notRegistered.text)")
            let scope = try await flow.start(scope: "openid api.write")
            #expect(DeviceFlow.error(scope) == "invalid_scope")
            let noScope = try await flow.start(scope: "")
            #expect(DeviceFlow.error(noScope) == "invalid_scope")
            for name in [String(repeating: "x", count: 65), "TV\u{0}", "TV\u{202E}evil"] {
                let response = try await flow.start(extra: ["device_name": name])
                #expect(DeviceFlow.error(response) == "invalid_request", "device_name \(name.debugDescription)")
            }
            let unknownClient = try await DeviceFlow(device: server.client(), clientID: "nobody").start()
            #expect(unknownClient.status == 401)
            let inQuery = try await server.client().post(
                "/device_authorization?client_id=tv-app", body: Data("scope=openid".utf8),
                headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(inQuery.status == 400)

            // A device code is its client's only.
            try await server.store.upsertClient(
                ClientRecord(clientID: "other-tv", name: "Other", redirectURIs: [], grantTypes: [.deviceCode]))
            let codes = try await flow.codes()
            let stolen = try await DeviceFlow(device: server.client(), clientID: "other-tv").poll(codes.deviceCode)
            #expect(DeviceFlow.error(stolen) == "invalid_grant")
            // A client registered only for the device grant gets no code at /authorize.
            let authorize = try await server.client().get(
                "/authorize",
                query: [
                    "client_id": DeviceFlow.tvApp, "redirect_uri": "com.example.app:/cb", "response_type": "code",
                    "scope": "openid", "code_challenge": PKCE().challenge, "code_challenge_method": "S256",
                ])
            #expect(authorize.status == 400, "no registered redirect URI")
        }
    }

    @Test("the page speaks the browser's language: German, and Arabic right to left")
    func localizedPage() async throws {
        try await withTestServer { server in
            let german = try await server.client().get("/device", headers: ["Accept-Language": "de-DE,de;q=0.9"])
            #expect(german.status == 200 && german.text.contains("lang=\"de\""))
            #expect(!german.text.contains("Connect a device"), "no English title left")
            let arabic = try await server.client().get("/device", query: ["ui_locales": "ar"])
            #expect(arabic.text.contains("dir=\"rtl\""))
            #expect(!arabic.text.contains("device.title"), "no raw key")
        }
    }

    @Test("a poll with a DPoP proof gets bound tokens; device_sso in an app group opens the device's own session")
    func dpopAndNativeSSO() async throws {
        try await withTestServer { server in
            try await DeviceFlow.registerTV(on: server) {
                $0.appGroup = "com.example.vendor"
                $0.allowedScopes.append(NativeSSO.scope)
            }
            let flow = DeviceFlow(device: server.client())
            let codes = try await flow.codes(scope: "openid offline_access device_sso")
            #expect(try await DeviceApprover(browser: server.client()).decide(codes.userCode).status == 200)
            let key = DPoPProofMaker()
            let proof = key.proof("POST", server.issuer + "/token", issuedAt: server.clock.now())
            let granted = try await flow.poll(codes.deviceCode, headers: ["DPoP": proof])
            #expect(granted.status == 200, "\(granted.text)")
            let tokens = try granted.json(TokenResponse.self)
            #expect(tokens.tokenType == "DPoP")
            let cnf = JWTParts.payload(tokens.accessToken)["cnf"] as? [String: Any]
            #expect(cnf?["jkt"] as? String == key.thumbprint)
            #expect(tokens.deviceSecret != nil, "Native SSO: the TV's device secret")
            let idToken = JWTParts.payload(try #require(tokens.idToken))
            #expect(idToken["ds_hash"] != nil && idToken["sid"] != nil)
        }
    }
}

