import Crypto
import Foundation
import Sesame
import SesameProtocol
import SesameServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Raw WebAuthn traffic for the ceremony tests: options from the real server, answers written
/// by ``AuthenticatorResponseFactory`` with exactly one rule broken, sent over real HTTP.
struct PasskeyFixture: Sendable {
    let server: IntegrationServer
    let user: IntegrationServer.User
    /// The user's access token (account API).
    let accessToken: String
    var factory = AuthenticatorResponseFactory(key: P256.Signing.PrivateKey(), credentialID: Data(SecureRandom.bytes(32)))

    var origin: String { "\(server.issuer.scheme!)://\(server.issuer.host!):\(server.issuer.port!)" }
    var rpID: String { server.issuer.host! }
    var userHandle: Data { Data(user.sub.utf8) }

    static func start(_ server: IntegrationServer, username: String = "grace") async throws -> PasskeyFixture {
        let user = try await server.addUser(username)
        let client = server.sdk()
        _ = try await passwordLogin(client, user)
        return PasskeyFixture(server: server, user: user, accessToken: try await client.validAccessToken())
    }

    func parameters(_ change: (inout AuthenticatorResponseFactory.Parameters) -> Void = { _ in })
        -> AuthenticatorResponseFactory.Parameters
    {
        var parameters = AuthenticatorResponseFactory.Parameters(origin: origin, rpID: rpID)
        change(&parameters)
        return parameters
    }

    // MARK: Registration through the account API

    func creationOptions() async throws -> CredentialCreationOptionsJSON {
        let (data, status) = try await send("POST", "/api/passkeys/options", json: nil)
        guard status == 200 else { throw FixtureError("options: \(status) \(String(decoding: data, as: UTF8.self))") }
        return try JSONDecoder().decode(CredentialCreationOptionsJSON.self, from: data)
    }

    func register(_ credential: RegistrationResponseJSON, name: String? = nil) async throws -> (Data, Int) {
        try await send("POST", "/api/passkeys", json: try JSONEncoder().encode(PasskeyRegistration(credential: credential, name: name)))
    }

    /// Registers the fixture's key, honestly.
    @discardableResult
    func registerHonestly(attestation: AuthenticatorResponseFactory.Attestation = .none) async throws -> Passkey {
        let options = try await creationOptions()
        let (data, status) = try await register(
            try factory.registration(challenge: options.challenge, parameters(), attestation: attestation))
        guard status == 201 else { throw FixtureError("register: \(status) \(String(decoding: data, as: UTF8.self))") }
        return try JSONDecoder().decode(Passkey.self, from: data)
    }

    // MARK: Sign-in through /authorize-challenge

    struct Started: Sendable {
        var authSession: String
        var options: CredentialRequestOptionsJSON
        var verifier: String
    }

    func startSignIn(username: String? = nil) async throws -> Started {
        let pkce = PKCE()
        var form = [
            ("client_id", IntegrationServer.clientID), ("scope", "openid profile"),
            ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"), ("challenge_type", "passkey"),
        ]
        if let username { form.append(("username", username)) }
        let (data, status) = try await post("/authorize-challenge", form)
        let error = try JSONDecoder().decode(APIError.self, from: data)
        guard status == 400, let session = error.authSession, let options = error.passkeyOptions else {
            throw FixtureError("start: \(status) \(error)")
        }
        return Started(authSession: session, options: options, verifier: pkce.verifier)
    }

    /// Sends `assertion`; the status and body.
    func finish(_ started: Started, _ assertion: AuthenticationResponseJSON) async throws -> (Data, Int) {
        let json = String(decoding: try JSONEncoder().encode(assertion), as: UTF8.self)
        return try await post("/authorize-challenge", [("auth_session", started.authSession), ("passkey_assertion", json)])
    }

    func assertion(_ started: Started, signCount: UInt32, _ change: (inout AuthenticatorResponseFactory.Parameters) -> Void = { _ in })
        throws -> AuthenticationResponseJSON
    {
        try factory.assertion(
            challenge: started.options.challenge, userHandle: userHandle,
            parameters { $0.signCount = signCount; change(&$0) })
    }

    // MARK: HTTP

    func send(_ method: String, _ path: String, json: Data?) async throws -> (Data, Int) {
        var request = URLRequest(url: server.issuer.appendingPathComponent(String(path.dropFirst())))
        request.httpMethod = method
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        if let json {
            request.httpBody = json
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, (response as! HTTPURLResponse).statusCode)
    }

    func post(_ path: String, _ form: [(String, String)]) async throws -> (Data, Int) {
        var request = URLRequest(url: server.issuer.appendingPathComponent(String(path.dropFirst())))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        request.httpBody = Data(
            form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)" }.joined(separator: "&").utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, (response as! HTTPURLResponse).statusCode)
    }

    static func error(_ data: Data) throws -> APIError { try JSONDecoder().decode(APIError.self, from: data) }
}
