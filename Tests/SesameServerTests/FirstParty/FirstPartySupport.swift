import SesameTesting
import TestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SesameProtocol
import Testing
@testable import SesameServer

/// Drives `POST /authorize-challenge` (draft-ietf-oauth-first-party-apps) and the MFA
/// enrolment API against a ``TestServer`` the way a native first-party app would.
struct ChallengeFlow {
    let server: TestServer
    let http: HTTPTestClient
    var clientID = Fixtures.nativeApp
    var scope = "openid profile email offline_access"
    let pkce = PKCE()

    /// - Parameter http: the client to send with; default the server's issuer (a sibling
    ///   server is reached through its own port, ``TestServer/portClient()``).
    init(_ server: TestServer, clientID: String = Fixtures.nativeApp, http: HTTPTestClient? = nil) {
        self.server = server
        self.http = http ?? server.client()
        self.clientID = clientID
    }

    /// The start parameters with fresh PKCE S256.
    func startParameters(
        username: String = Fixtures.username, password: String = Fixtures.password, extra: [String: String] = [:]
    ) -> [String: String] {
        [
            "client_id": clientID, "scope": scope, "code_challenge": pkce.challenge,
            "code_challenge_method": "S256", "username": username, "password": password,
        ].merging(extra) { $1 }
    }

    func start(
        username: String = Fixtures.username, password: String = Fixtures.password, extra: [String: String] = [:],
        headers: [String: String] = [:]
    ) async throws -> TestResponse {
        try await http.postForm(
            "/authorize-challenge", startParameters(username: username, password: password, extra: extra),
            headers: headers)
    }

    func choose(_ session: String, _ method: MFAMethod, extra: [String: String] = [:]) async throws -> TestResponse {
        try await http.postForm(
            "/authorize-challenge", ["auth_session": session, "mfa_method": method.rawValue].merging(extra) { $1 })
    }

    func verify(_ session: String, code: String, extra: [String: String] = [:]) async throws -> TestResponse {
        try await http.postForm(
            "/authorize-challenge", ["auth_session": session, "mfa_code": code].merging(extra) { $1 })
    }

    /// The `authorization_code` of a 200 answer.
    static func code(_ response: TestResponse) throws -> String {
        try #require(response.status == 200, "expected a code, got \(response.status) \(response.text)")
        return try response.json(AuthorizationChallengeResponse.self).authorizationCode
    }

    /// The API error of a non-200 answer.
    static func error(_ response: TestResponse) throws -> APIError {
        try response.json(APIError.self)
    }

    /// Redeems a first-party code at `/token` (no redirect_uri).
    func exchange(_ code: String, verifier: String? = nil) async throws -> TestResponse {
        try await http.postForm(
            "/token",
            [
                "grant_type": "authorization_code", "code": code, "client_id": clientID,
                "code_verifier": verifier ?? pkce.verifier,
            ])
    }

    /// Code → tokens, requiring success.
    func tokens(_ code: String) async throws -> TokenResponse {
        let response = try await exchange(code)
        try #require(response.status == 200, "token exchange failed: \(response.text)")
        return try response.json(TokenResponse.self)
    }

    /// Password-only sign-in (the user has no second factor) → tokens.
    func passwordTokens(extra: [String: String] = [:]) async throws -> TokenResponse {
        try await tokens(Self.code(start(extra: extra)))
    }
}

extension TestServer {
    var mfaOutbox: OutboxMessageSender {
        get throws {
            try #require(running.messageSender as? OutboxMessageSender, "the test server uses the outbox")
        }
    }

    /// The 6-digit code in the latest message to `recipient`.
    func lastMFACode(to recipient: String) async throws -> String {
        let message = try #require(try await mfaOutbox.messages(to: recipient).last, "no message to \(recipient)")
        #expect(message.purpose == "mfa_code")
        let digits = try #require(
            message.body.firstMatch(of: /\b[0-9]{6}\b/), "no code in the message to \(recipient)")
        return String(digits.output)
    }

    func mfaMessageCount(to recipient: String) async throws -> Int {
        try await mfaOutbox.messages(to: recipient).count
    }

    /// Registers a public native client with the given MFA policy, first-party unless told
    /// otherwise (only first-party clients may use `/authorize-challenge`).
    func addMFATestClient(_ clientID: String, policy: MFAPolicy, firstParty: Bool = true) async throws {
        try await store.upsertClient(
            ClientRecord(
                clientID: clientID, name: clientID, redirectURIs: ["com.example.\(clientID):/cb"], mfaPolicy: policy,
                firstParty: firstParty))
    }

    /// Creates a user with a password; email verified unless told otherwise.
    func addMFATestUser(_ username: String, emailVerified: Bool = true) async throws -> UserRecord {
        let user = UserRecord(
            username: username, email: "\(username)@example.com", emailVerified: emailVerified,
            passwordHash: try TestServer.hasher.hash(Fixtures.password))
        try await store.createUser(user)
        return user
    }
}

/// The MFA enrolment API with a bearer access token.
struct MFAEnrollmentClient {
    let http: HTTPTestClient
    let accessToken: String

    var auth: [String: String] { ["Authorization": "Bearer \(accessToken)"] }

    func list() async throws -> TestResponse { try await http.get("/api/mfa", headers: auth) }

    func post(_ path: String, json: String? = nil) async throws -> TestResponse {
        try await http.post(
            path, body: Data((json ?? "{}").utf8),
            headers: auth.merging(["Content-Type": "application/json"]) { $1 })
    }

    func delete(_ method: String) async throws -> TestResponse {
        try await http.mfaRawRequest(method: "DELETE", path: "/api/mfa/\(method)", headers: auth)
    }

    func enableEmail() async throws {
        let response = try await post("/api/mfa/email")
        try #require(response.status == 200, "enable email: \(response.text)")
    }

    /// Enrols and confirms TOTP; returns the generator.
    func enrollTOTP(clock: ManualClock) async throws -> TOTP {
        let response = try await post("/api/mfa/totp")
        try #require(response.status == 200, "enrol TOTP: \(response.text)")
        let enrollment = try response.json(TOTPEnrollment.self)
        let totp = TOTP(secret: try #require(Base32.decode(enrollment.secret)))
        let confirm = try await post("/api/mfa/totp/confirm", json: #"{"code":"\#(totp.code(at: clock.now()))"}"#)
        try #require(confirm.status == 200, "confirm TOTP: \(confirm.text)")
        return totp
    }

    /// Enrols and confirms an SMS number, reading the code from the outbox.
    func enrollSMS(_ number: String, server: TestServer) async throws {
        let response = try await post("/api/mfa/sms", json: #"{"phone_number":"\#(number)"}"#)
        try #require(response.status == 202, "enrol SMS: \(response.text)")
        let code = try await server.lastMFACode(to: number)
        let confirm = try await post("/api/mfa/sms/confirm", json: #"{"code":"\#(code)"}"#)
        try #require(confirm.status == 200, "confirm SMS: \(confirm.text)")
    }
}

extension HTTPTestClient {
    /// A body-less request with any method over URLSession (not ``RawHTTP``, whose blocking
    /// reads occupy the NIO thread pool the server hashes passwords on).
    func mfaRawRequest(method: String, path: String, headers: [String: String]) async throws -> TestResponse {
        var request = URLRequest(url: URL(string: baseURL.absoluteString + path)!)
        request.httpMethod = method
        request.timeoutInterval = HTTPTestClient.requestTimeout
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { fields[key.lowercased()] = value }
        }
        return TestResponse(status: http.statusCode, headers: fields, setCookies: [], body: data)
    }
}

/// Signs `username` in with a password only (client policy `never`) and returns an enrolment
/// client holding the access token.
func enrollmentClient(_ server: TestServer, username: String = Fixtures.username) async throws -> MFAEnrollmentClient {
    try await server.addMFATestClientIfMissing("enrol-app", policy: .never)
    var flow = ChallengeFlow(server, clientID: "enrol-app")
    flow.scope = "openid"
    let code = try ChallengeFlow.code(try await flow.start(username: username))
    return MFAEnrollmentClient(http: server.client(), accessToken: try await flow.tokens(code).accessToken)
}

extension TestServer {
    func addMFATestClientIfMissing(_ clientID: String, policy: MFAPolicy) async throws {
        if try await store.client(id: clientID) == nil { try await addMFATestClient(clientID, policy: policy) }
    }
}
