import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("MFA enrolment API")
struct MFAEnrollmentTests {
    @Test("every endpoint needs a bearer access token (401 with WWW-Authenticate: Bearer)")
    func requiresToken() async throws {
        try await withTestServer { server in
            let anonymous = MFAEnrollmentClient(http: server.client(), accessToken: "nope")
            var responses = [try await anonymous.list(), try await anonymous.delete("totp")]
            for path in ["/api/mfa/totp", "/api/mfa/totp/confirm", "/api/mfa/email", "/api/mfa/sms", "/api/mfa/sms/confirm"] {
                responses.append(try await anonymous.post(path, json: #"{"code":"123456","phone_number":"+4712345678"}"#))
            }
            responses.append(try await server.client().get("/api/mfa"))
            for response in responses {
                #expect(response.status == 401)
                #expect(try ChallengeFlow.error(response).error == "invalid_token")
                #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            }
        }
    }

    @Test("TOTP: otpauth URI, pending until confirmed, wrong code counted, listed, removed")
    func totp() async throws {
        try await withTestServer { server in
            let client = try await enrollmentClient(server)
            let empty = try await client.list().json(MFAEnrollmentList.self)
            #expect(empty.methods.isEmpty)

            let response = try await client.post("/api/mfa/totp")
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "no-store")
            let enrollment = try response.json(TOTPEnrollment.self)
            let secret = try #require(Base32.decode(enrollment.secret))
            #expect(secret.count == 20)
            let host = try #require(server.baseURL.host)
            #expect(enrollment.otpauthURI.hasPrefix("otpauth://totp/\(host):alice?secret=\(enrollment.secret)&"))
            #expect(enrollment.otpauthURI.contains("issuer=\(host)"))
            #expect(enrollment.otpauthURI.contains("algorithm=SHA1&digits=6&period=30"))
            // Stored sealed, never in clear.
            let stored = try #require(try await server.running.store.user(login: Fixtures.username))
            let records = try await (server.running.store as! SQLIdentityStore).mfaEnrollments(userID: stored.id)
            #expect(records.first?.sealedSecret?.contains(enrollment.secret) == false)
            #expect(records.first?.confirmed == false)
            #expect(try await client.list().json(MFAEnrollmentList.self).methods
                == [MFAEnrollmentStatus(method: .totp, confirmed: false)])

            let totp = TOTP(secret: secret)
            let right = totp.code(at: server.clock.now())
            let wrong = try ChallengeFlow.error(
                try await client.post("/api/mfa/totp/confirm", json: #"{"code":"\#(right == "000000" ? "000001" : "000000")"}"#))
            #expect(wrong.errorCode == APIErrorCode.invalidMFACode.rawValue)
            #expect(wrong.remainingAttempts == 4)
            let confirmed = try await client.post("/api/mfa/totp/confirm", json: #"{"code":"\#(right)"}"#)
            #expect(confirmed.status == 200, "\(confirmed.text)")
            #expect(try confirmed.json(MFAEnrollmentStatus.self) == MFAEnrollmentStatus(method: .totp, confirmed: true))

            let again = try await client.post("/api/mfa/totp")
            #expect(again.status == 400)

            #expect(try await client.delete("totp").status == 204)
            #expect(try await client.delete("totp").status == 404)
            #expect(try ChallengeFlow.error(try await client.delete("totp")).errorCode == APIErrorCode.notFound.rawValue)
            #expect(try await client.delete("fax").status == 404)
            #expect(try await client.list().json(MFAEnrollmentList.self).methods.isEmpty)
        }
    }

    @Test("email: needs a verified address (2008); listed with a masked destination")
    func email() async throws {
        try await withTestServer { server in
            let client = try await enrollmentClient(server)
            let response = try await client.post("/api/mfa/email")
            #expect(response.status == 200)
            #expect(try await client.list().json(MFAEnrollmentList.self).methods
                == [MFAEnrollmentStatus(method: .email, confirmed: true, destination: "a***@example.com")])

            _ = try await server.addMFATestUser("carol", emailVerified: false)
            let carol = try await enrollmentClient(server, username: "carol")
            let refused = try await carol.post("/api/mfa/email")
            #expect(refused.status == 403)
            #expect(try ChallengeFlow.error(refused).errorCode == APIErrorCode.emailNotVerified.rawValue)
        }
    }

    @Test("SMS: E.164 validation with error_details, code by SMS, confirm, expired and exhausted codes")
    func sms() async throws {
        try await withTestServer { server in
            let client = try await enrollmentClient(server)
            for (body, code) in [
                (#"{"phone_number":"12345"}"#, "invalid_format"), (#"{"phone_number":"+47 123 45 678"}"#, "invalid_format"),
                (#"{"phone_number":""}"#, "required"), (#"{}"#, "required"), (#"{"phone_number":47}"#, "invalid_format"),
            ] {
                let response = try await client.post("/api/mfa/sms", json: body)
                #expect(response.status == 400, "\(body)")
                let error = try ChallengeFlow.error(response)
                #expect(error.errorCode == APIErrorCode.validationFailed.rawValue, "\(body)")
                #expect(error.errorDetails?.first?.field == "phone_number", "\(body)")
                #expect(error.errorDetails?.first?.code == code, "\(body)")
                #expect(error.errorDetails?.first?.message.isEmpty == false)
            }
            let notJSON = try await client.http.post(
                "/api/mfa/sms", body: Data("phone_number=+4712345678".utf8),
                headers: client.auth.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 })
            #expect(notJSON.status == 400)

            let started = try await client.post("/api/mfa/sms", json: #"{"phone_number":"+4712345678"}"#)
            #expect(started.status == 202)
            #expect(try started.json(MFAEnrollmentStatus.self)
                == MFAEnrollmentStatus(method: .sms, confirmed: false, destination: "+47******78"))
            let first = try await server.lastMFACode(to: "+4712345678")

            server.clock.advance(by: OneTimeCode.lifetime + 1)
            let expired = try ChallengeFlow.error(try await client.post("/api/mfa/sms/confirm", json: #"{"code":"\#(first)"}"#))
            #expect(expired.errorCode == APIErrorCode.mfaCodeExpired.rawValue)

            _ = try await client.post("/api/mfa/sms", json: #"{"phone_number":"+4712345678"}"#)
            let code = try await server.lastMFACode(to: "+4712345678")
            let wrong = code == "000000" ? "000001" : "000000"
            for remaining in [4, 3, 2, 1] {
                let error = try ChallengeFlow.error(try await client.post("/api/mfa/sms/confirm", json: #"{"code":"\#(wrong)"}"#))
                #expect(error.remainingAttempts == remaining)
            }
            let exhausted = try ChallengeFlow.error(try await client.post("/api/mfa/sms/confirm", json: #"{"code":"\#(wrong)"}"#))
            #expect(exhausted.errorCode == APIErrorCode.mfaAttemptsExhausted.rawValue)
            let gone = try await client.post("/api/mfa/sms/confirm", json: #"{"code":"\#(code)"}"#)
            #expect(gone.status == 404)
            let unconfirmed = try #require(try await server.store.user(login: Fixtures.username)).claims
            #expect(unconfirmed.phoneNumber == "+15550100" && unconfirmed.phoneNumberVerified != true)

            try await client.enrollSMS("+4712345678", server: server)
            #expect(try await client.list().json(MFAEnrollmentList.self).methods
                == [MFAEnrollmentStatus(method: .sms, confirmed: true, destination: "+47******78")])
            // The confirmed number replaces the unverified profile number, verified (OIDC Core §5.1).
            let confirmed = try #require(try await server.store.user(login: Fixtures.username)).claims
            #expect(confirmed.phoneNumber == "+4712345678")
            #expect(confirmed.phoneNumberVerified == true)
            let missingCode = try ChallengeFlow.error(try await client.post("/api/mfa/sms/confirm", json: "{}"))
            #expect(missingCode.errorDetails?.first?.field == "code")
        }
    }

    @Test("removeMFAData deletes every enrolment and pending auth session of the user")
    func removeMFAData() async throws {
        try await withTestServer { server in
            let client = try await enrollmentClient(server)
            try await client.enableEmail()
            let flow = ChallengeFlow(server)
            let session = try #require(try ChallengeFlow.error(try await flow.start()).authSession)
            let user = try #require(try await server.store.user(login: Fixtures.username))
            let store = server.running.store as! SQLIdentityStore
            try await store.removeMFAData(userID: user.id)
            #expect(try await store.mfaEnrollments(userID: user.id).isEmpty)
            let after = try ChallengeFlow.error(try await flow.choose(session, .email))
            #expect(after.errorCode == APIErrorCode.invalidAuthSession.rawValue)
        }
    }
}
