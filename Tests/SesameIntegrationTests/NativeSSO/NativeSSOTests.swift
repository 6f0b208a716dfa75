import Foundation
import Sesame
import SesameProtocol
import SesameServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Single sign-on across a vendor's apps (OpenID Connect Native SSO 1.0 draft 07 on RFC 8693
/// token exchange, docs/native-sso.md): the SDK of two apps against the real server over
/// loopback HTTP, and the server's §4.3 checks one by one with raw requests.
@Suite("Native SSO across a vendor's apps")
struct NativeSSOTests {
    @Test("app A signs in in the browser with device_sso; app B joins with no browser: its own aud, the same sid, acr and amr; B refreshes on its own")
    func siblingJoins() async throws {
        try await withServer { server in
            let sso = try await NativeSSOFixture.prepare(server)
            let appA = sso.app(NativeSSOFixture.appA)
            #expect(try await appA.metadata().nativeSSOSupported == true)
            let account = try await appA.signIn(with: server.agent())
            let claimsA = try await appA.idTokenClaims()
            let sid = try #require(claimsA.sid)
            #expect(sid.hasPrefix("ds_"), "the sid is the device session")
            let material = try await sso.sharedMaterial()
            let payloadA = try jwtPayload(material.idToken)
            #expect(payloadA["ds_hash"] is String && payloadA["sid"] as? String == sid)

            let appB = sso.app(NativeSSOFixture.appB)
            let offered = await appB.sso.accounts()
            #expect(offered.map(\.id) == [account.id])
            #expect(offered.first?.email == "ada@example.com", "the label for Continue as ...")
            #expect(offered.first?.sharedBy == NativeSSOFixture.appA)
            let joined = try await appB.sso.signIn(with: try #require(offered.first))
            #expect(joined.id == account.id)
            let claimsB = try await appB.idTokenClaims()
            #expect(claimsB.aud == [NativeSSOFixture.appB])
            #expect(claimsB.sid == sid)
            #expect(claimsB.acr == claimsA.acr && claimsB.amr == claimsA.amr)
            #expect(claimsB.authTime == claimsA.authTime, "the sign-in B inherits, not a new one")

            let before = try await appB.validAccessToken()
            let refreshed = try await appB.validAccessToken(forceRefresh: true)
            #expect(refreshed != before)
            // B presented the device secret (§3.2 SHOULD), so it was kept, and the group got B's
            // fresh ID token.
            let afterRefresh = try await sso.sharedMaterial()
            #expect(afterRefresh.deviceSecret == material.deviceSecret)
            #expect(try jwtPayload(afterRefresh.idToken)["aud"] as? String == NativeSSOFixture.appB)
            #expect(try jwtPayload(refreshed)["client_id"] as? String == NativeSSOFixture.appB)
            #expect(try await appA.validAccessToken(forceRefresh: true) != before, "A is unaffected")

            await server.running.flushAuditLog()
            let log = server.running.store
            let events = try await log.auditRecords(AuditQuery(events: ["sso."])).map(\.event)
            #expect(events.sorted() == ["sso.device_session_opened", "sso.exchanged"], "\(events)")
        }
    }

    @Test("logout this app in A keeps B signed in; logout everywhere ends B's session at its next refresh (revokedElsewhere) and forgets the shared account; a replay is refused")
    func logoutScopes() async throws {
        try await withServer { server in
            let sso = try await NativeSSOFixture.prepare(server)
            let appA = sso.app(NativeSSOFixture.appA)
            let user = try await server.addUser("grace")
            _ = try await passwordLogin(appA, user)
            let appB = sso.app(NativeSSOFixture.appB)
            let account = try await appB.sso.signIn(with: try #require(await appB.sso.accounts().first))

            let thisApp = try await appA.sso.logout(.thisApp)
            #expect(thisApp.revoked)
            _ = try await appB.validAccessToken(forceRefresh: true)
            #expect(await appB.sso.accounts().count == 1, "the shared account stays")

            // A signs in again through B's session, then signs out everywhere.
            let again = sso.app(NativeSSOFixture.appA)
            _ = try await again.sso.signIn(with: try #require(await again.sso.accounts().first))
            let material = try await sso.sharedMaterial()
            let events = appB.events()
            let everywhere = try await again.sso.logout(.everywhere)
            #expect(everywhere.revoked)
            #expect(await again.sso.accounts().isEmpty)

            do throws(SesameError) {
                _ = try await appB.validAccessToken(forceRefresh: true)
                Issue.record("B refreshed after sign-out everywhere")
            } catch {
                #expect(error.code == .authenticationFailed && error.apiErrorCode == .sessionEndedElsewhere, "\(error)")
            }
            var iterator = events.makeAsyncIterator()
            var reason: SignOutReason?
            while reason == nil, let event = await iterator.next() {
                if case .signedOut(let gone, let why) = event, gone.id == account.id { reason = why }
            }
            #expect(reason == .revokedElsewhere)
            #expect(await appB.accounts().isEmpty)

            let replay = try await sso.exchange(
                as: NativeSSOFixture.appB, idToken: material.idToken, deviceSecret: material.deviceSecret)
            #expect(replay.status == 400 && replay.body["error"] as? String == "invalid_grant")
            #expect(replay.body["access_token"] == nil)
        }
    }

    @Test("each Native SSO §4.3 and RFC 8693 rule refused with its own error, nothing issued, the rule in the audit log; the good request then works")
    func refusals() async throws {
        try await withServer { server in
            let sso = try await NativeSSOFixture.prepare(server)
            _ = try await passwordLogin(sso.app(NativeSSOFixture.appA), try await server.addUser("grace"))
            let material = try await sso.sharedMaterial()
            // Another user's device session, in another group store.
            let otherGroup = InMemoryCredentialStore()
            let other = sso.app(NativeSSOFixture.appA, group: otherGroup)
            _ = try await passwordLogin(other, try await server.addUser("henry"))
            let otherKey = try #require(try await otherGroup.keys().first)
            let otherData = try #require(try await otherGroup.load(otherKey))
            let otherEntry = try #require(try JSONSerialization.jsonObject(with: otherData) as? [String: Any])
            let otherSecret = try #require(otherEntry["deviceSecret"] as? String)

            var parts = material.idToken.split(separator: ".").map(String.init)
            var payload = try jwtPayload(material.idToken)
            payload["ds_hash"] = "AAAAAAAAAAAAAAAAAAAAAA"
            parts[1] = Base64URL.encode(try JSONSerialization.data(withJSONObject: payload))
            let tampered = parts.joined(separator: ".")

            let cases: [(String, String, String, String, (inout [String: String]) -> Void)] = [
                ("another session's device secret", NativeSSOFixture.appB, "invalid_request", "ds_hash",
                 { $0["actor_token"] = otherSecret }),
                ("an ID token whose ds_hash was changed", NativeSSOFixture.appB, "invalid_request", "id_token",
                 { $0["subject_token"] = tampered }),
                ("an unknown device secret", NativeSSOFixture.appB, "invalid_request", "device_secret",
                 { $0["actor_token"] = "not-a-device-secret" }),
                ("a client of another vendor", NativeSSOFixture.otherVendor, "unauthorized_client", "app_group", { _ in }),
                ("another audience", NativeSSOFixture.appB, "invalid_target", "audience",
                 { $0["audience"] = "https://api.example.com" }),
                ("no audience", NativeSSOFixture.appB, "invalid_request", "audience", { $0["audience"] = nil }),
                ("another actor token type", NativeSSOFixture.appB, "invalid_request", "actor_token_type",
                 { $0["actor_token_type"] = TokenExchange.TokenType.accessToken }),
                ("a requested token type other than an access token", NativeSSOFixture.appB, "invalid_request",
                 "requested_token_type", { $0["requested_token_type"] = TokenExchange.TokenType.idToken }),
                ("a scope without openid", NativeSSOFixture.appB, "invalid_scope", "", { $0["scope"] = "profile" }),
                ("an unsupported subject token type", NativeSSOFixture.appB, "invalid_request", "",
                 { $0["subject_token_type"] = TokenExchange.TokenType.accessToken }),
            ]
            for (name, client, error, _, change) in cases {
                let answer = try await sso.exchange(
                    as: client, idToken: material.idToken, deviceSecret: material.deviceSecret, changes: change)
                #expect(answer.status == 400, "\(name)")
                #expect(answer.body["error"] as? String == error, "\(name): \(answer.body)")
                #expect(answer.body["access_token"] == nil && answer.body["refresh_token"] == nil, "\(name)")
            }
            // A client in no app group is not even allowed the grant.
            let lone = try await sso.exchange(
                as: NativeSSOFixture.noGroup, idToken: material.idToken, deviceSecret: material.deviceSecret)
            #expect(lone.status == 400 && lone.body["error"] as? String == "unauthorized_client")

            await server.running.flushAuditLog()
            let log = server.running.store
            let reasons = Set(try await log.auditRecords(AuditQuery(events: ["sso.refused"])).compactMap(\.reason))
            let expected = Set(cases.map(\.3).filter { !$0.isEmpty })
            #expect(reasons == expected, "\(reasons)")

            let good = try await sso.exchange(
                as: NativeSSOFixture.appB, idToken: material.idToken, deviceSecret: material.deviceSecret)
            #expect(good.status == 200, "\(good.body)")
            #expect(good.body["issued_token_type"] as? String == TokenExchange.TokenType.accessToken)
            #expect((good.body["token_type"] as? String)?.lowercased() == "bearer")
            #expect(good.body["refresh_token"] is String && good.body["id_token"] is String)
            #expect(good.body["device_secret"] == nil, "the app has it already; not rotated")
        }
    }

    @Test("an ID token expired within the grace is accepted, beyond it refused; the device session's maximum lifetime ends every app's refresh")
    func expiry() async throws {
        let time = ServerTime()
        try await withServer(configure: {
            $0.now = time.now
            $0.nativeSSO = NativeSSOPolicy(deviceSessionLifetime: 3_600, idTokenGrace: 120)
        }) { server in
            let sso = try await NativeSSOFixture.prepare(server)
            _ = try await passwordLogin(sso.app(NativeSSOFixture.appA), try await server.addUser("grace"))
            let material = try await sso.sharedMaterial()
            time.advance(by: 900 + 60)  // the ID token (15 minutes) expired a minute ago
            let within = try await sso.exchange(
                as: NativeSSOFixture.appB, idToken: material.idToken, deviceSecret: material.deviceSecret)
            #expect(within.status == 200, "\(within.body)")
            let refreshToken = try #require(within.body["refresh_token"] as? String)
            time.advance(by: 120)
            let beyond = try await sso.exchange(
                as: NativeSSOFixture.appB, idToken: material.idToken, deviceSecret: material.deviceSecret)
            #expect(beyond.status == 400 && beyond.body["error"] as? String == "invalid_request", "\(beyond.body)")
            #expect((beyond.body["error_description"] as? String)?.contains("expired") == true)

            time.advance(by: 3_600)  // past the device session's lifetime
            let refresh = try await sso.postForm(
                "token",
                ["grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": NativeSSOFixture.appB])
            #expect(refresh.status == 400 && refresh.body["error"] as? String == "invalid_grant", "\(refresh.body)")
            #expect((refresh.body["error_description"] as? String)?.contains("maximum lifetime") == true)
        }
    }

    @Test("refresh with device_sso: the presented secret is kept; without it the secret is rotated, the old one stops working, and the new ID token's ds_hash binds the new one")
    func refreshRotation() async throws {
        try await withServer { server in
            let sso = try await NativeSSOFixture.prepare(server)
            _ = try await passwordLogin(sso.app(NativeSSOFixture.appA), try await server.addUser("grace"))
            let material = try await sso.sharedMaterial()
            let joined = try await sso.exchange(
                as: NativeSSOFixture.appB, idToken: material.idToken, deviceSecret: material.deviceSecret)
            var refreshToken = try #require(joined.body["refresh_token"] as? String)

            let kept = try await sso.postForm(
                "token",
                [
                    "grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": NativeSSOFixture.appB,
                    "device_secret": material.deviceSecret,
                ])
            #expect(kept.body["device_secret"] as? String == material.deviceSecret, "\(kept.body)")
            refreshToken = try #require(kept.body["refresh_token"] as? String)

            let rotated = try await sso.postForm(
                "token",
                ["grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": NativeSSOFixture.appB])
            let newSecret = try #require(rotated.body["device_secret"] as? String)
            let newIDToken = try #require(rotated.body["id_token"] as? String)
            #expect(newSecret != material.deviceSecret)
            #expect(try jwtPayload(newIDToken)["ds_hash"] as? String != payloadHash(material.idToken))

            let old = try await sso.exchange(
                as: NativeSSOFixture.appA, idToken: material.idToken, deviceSecret: material.deviceSecret)
            #expect(old.status == 400, "the rotated-away secret no longer works")
            let fresh = try await sso.exchange(
                as: NativeSSOFixture.appA, idToken: newIDToken, deviceSecret: newSecret)
            #expect(fresh.status == 200, "\(fresh.body)")
        }
    }

    @Test("a sign-in presents the device's secret (§3.2) and stays in its device session; a stale shared entry fails cleanly with ssoUnavailable, is removed, and a presented stale secret is ignored (§3.4)")
    func staleMaterial() async throws {
        try await withServer { server in
            let sso = try await NativeSSOFixture.prepare(server)
            let user = try await server.addUser("grace")
            let appA = sso.app(NativeSSOFixture.appA)
            _ = try await passwordLogin(appA, user)
            let sid = try await appA.idTokenClaims().sid
            let again = sso.app(NativeSSOFixture.appB)
            _ = try await passwordLogin(again, user)
            #expect(try await again.idTokenClaims().sid == sid, "the second sign-in joined the same device session")

            let key = try #require(try await sso.group.keys().first)
            let stale = try #require(try await sso.group.load(key))
            _ = try await appA.sso.logout(.everywhere)
            let restored = InMemoryCredentialStore()
            try await restored.save(stale, for: key)
            let appB = sso.app(NativeSSOFixture.appB, group: restored)
            let offered = try #require(await appB.sso.accounts().first)
            do throws(SesameError) {
                _ = try await appB.sso.signIn(with: offered)
                Issue.record("a revoked session was joined")
            } catch {
                guard case .ssoUnavailable(let reason) = error.reason else {
                    Issue.record("expected ssoUnavailable, got \(error)")
                    return
                }
                #expect(reason.contains("ended"), "\(reason)")
            }
            #expect(await appB.sso.accounts().isEmpty, "the stale entry is removed")
            #expect(await appB.accounts().isEmpty, "nothing was signed in")

            try await restored.save(stale, for: key)
            let fresh = sso.app(NativeSSOFixture.appA, group: restored)
            _ = try await passwordLogin(fresh, user)
            let newSID = try await fresh.idTokenClaims().sid
            #expect(newSID != nil && newSID != sid, "the stale secret was treated as absent: a new device session")
        }
    }

    private func payloadHash(_ idToken: String) throws -> String? {
        try jwtPayload(idToken)["ds_hash"] as? String
    }

    @Test("analytics: sign-in started and succeeded, a failure with its code, SSO used, logout with its scope; nothing secret in the attributes")
    func analytics() async throws {
        try await withServer { server in
            let sso = try await NativeSSOFixture.prepare(server)
            let user = try await server.addUser("grace")
            let recorder = RecordingAnalytics()
            let appA = sso.app(NativeSSOFixture.appA)
            appA.setAnalytics(recorder)
            _ = try? await appA.login(username: user.username, password: "wrong password")
            _ = try await passwordLogin(appA, user)
            let appB = sso.app(NativeSSOFixture.appB)
            appB.setAnalytics(recorder)
            _ = try await appB.sso.signIn(with: try #require(await appB.sso.accounts().first))
            _ = try await appB.sso.logout(.everywhere)
            #expect(
                recorder.names == [
                    "sign_in_started", "sign_in_failed", "sign_in_started", "sign_in_succeeded", "sign_in_started",
                    "sso_used", "sign_in_succeeded", "logout",
                ], "\(recorder.names)")
            let events = recorder.events.withLock { $0 }
            #expect(events[1].attributes["error_code"] == "2000" && events[1].attributes["method"] == "password")
            #expect(events[4].attributes["method"] == "sso" && events[4].attributes["client_id"] == NativeSSOFixture.appB)
            #expect(events.last?.attributes["scope"] == "everywhere")
            let values = events.flatMap { $0.attributes.values }
            #expect(!values.contains { $0.contains(user.password) || $0.contains("wrong password") || $0.count > 64 })
        }
    }
}

/// Token exchange with `resource` (RFC 8693 §2.1, RFC 8707, issue #49): a sibling app joining the
/// sign-in may ask for one of its registered APIs, and only those.
@Suite("Native SSO exchange for an API")
struct NativeSSOResourceTests {
    @Test("the exchange names a registered API of the app: the token is for it; another API or a malformed one is invalid_target")
    func exchangeForAnAPI() async throws {
        try await withServer { server in
            let sso = try await NativeSSOFixture.prepare(server)
            let store = server.running.store
            let shop = "https://shop-api.example.com"
            try await store.upsertAPI(APIRecord(identifier: shop, name: "Shop", scopes: ["orders:read"]))
            try await store.upsertAPI(APIRecord(identifier: "https://bank-api.example.com", name: "Bank", scopes: []))
            var appB = try #require(try await store.client(id: NativeSSOFixture.appB))
            appB.resources = [shop]
            try await store.upsertClient(appB)
            _ = try await sso.app(NativeSSOFixture.appA).signIn(with: server.agent())
            let material = try await sso.sharedMaterial()

            let exchanged = try await sso.exchange(
                as: NativeSSOFixture.appB, idToken: material.idToken, deviceSecret: material.deviceSecret
            ) { $0["resource"] = shop; $0["scope"] = "openid offline_access device_sso orders:read" }
            #expect(exchanged.status == 200, "\(exchanged.body)")
            let claims = try jwtPayload(try #require(exchanged.body["access_token"] as? String))
            #expect(claims["aud"] as? [String] == [shop, server.issuer.absoluteString], "\(claims)")
            #expect(claims["scope"] as? String == "openid offline_access orders:read")

            for resource in ["https://bank-api.example.com", "https://shop-api.example.com#x"] {
                let refused = try await sso.exchange(
                    as: NativeSSOFixture.appB, idToken: material.idToken, deviceSecret: material.deviceSecret
                ) { $0["resource"] = resource }
                #expect(refused.status == 400 && refused.body["error"] as? String == "invalid_target", "\(resource): \(refused.body)")
            }
        }
    }
}
