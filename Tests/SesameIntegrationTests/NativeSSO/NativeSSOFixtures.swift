import Foundation
import Logging
import Sesame
import SesameProtocol
import SesameServer
import SesameTesting
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The vendor "acme" with two apps (`app-a`, `app-b`), an app of another vendor and an app of
/// none, on the real server; SDK clients that share one single sign-on group.
struct NativeSSOFixture: Sendable {
    static let appA = "app-a"
    static let appB = "app-b"
    static let otherVendor = "other-vendor-app"
    static let noGroup = "lone-app"

    let server: IntegrationServer
    /// The group the vendor's apps share (a Keychain access group on Apple platforms).
    let group = InMemoryCredentialStore()

    /// Registers the four clients.
    static func prepare(_ server: IntegrationServer) async throws -> NativeSSOFixture {
        let admin = ServerAdmin(
            store: server.running.store, hasher: TestServer.hasher, keyRing: server.running.keyRing)
        let redirects = [IntegrationServer.redirectURI, IntegrationServer.loopbackRedirectURI]
        for (id, group) in [(appA, "acme"), (appB, "acme"), (otherVendor, "globex"), (noGroup, nil)] {
            _ = try await admin.addClient(
                ClientSpec(clientID: id, redirectURIs: redirects, firstParty: true, appGroup: group))
        }
        return NativeSSOFixture(server: server)
    }

    /// An app's SDK client: its own store, the shared group.
    func app(
        _ clientID: String, store: any CredentialStore = InMemoryCredentialStore(),
        transport: any HTTPTransport = URLSessionTransport(), group: (any CredentialStore)? = nil
    ) -> SesameClient {
        var configuration = server.configuration()
        configuration.clientID = clientID
        var logger = Logger(label: "sesame.it.sso")
        logger.logLevel = .error
        return SesameClient(
            configuration: configuration, store: store, transport: transport, clock: SystemClock(), logger: logger,
            retryPolicy: .none, ssoGroup: group ?? self.group)
    }

    /// What the group holds for the one shared account: the ID token and the device secret.
    func sharedMaterial() async throws -> (idToken: String, deviceSecret: String) {
        let keys = try await group.keys().filter { $0.hasPrefix("sso.") }
        guard keys.count == 1, let data = try await group.load(keys[0]),
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let idToken = object["idToken"] as? String, let secret = object["deviceSecret"] as? String
        else { throw FixtureError("the group holds \(keys.count) shared accounts, expected one") }
        return (idToken, secret)
    }

    /// A raw token-exchange request (Native SSO 1.0 §4.1) as `clientID`, with `changes` applied to
    /// the parameters; the status and the JSON body.
    func exchange(
        as clientID: String, idToken: String, deviceSecret: String,
        changes: (inout [String: String]) -> Void = { _ in }
    ) async throws -> (status: Int, body: [String: Any]) {
        var parameters = [
            "grant_type": TokenExchange.grantType, "client_id": clientID, "audience": server.issuer.absoluteString,
            "subject_token": idToken, "subject_token_type": TokenExchange.TokenType.idToken,
            "actor_token": deviceSecret, "actor_token_type": TokenExchange.TokenType.deviceSecret,
            "scope": "openid profile offline_access device_sso",
        ]
        changes(&parameters)
        return try await postForm("token", parameters)
    }

    func postForm(_ path: String, _ parameters: [String: String]) async throws -> (status: Int, body: [String: Any]) {
        var request = URLRequest(url: server.issuer.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(FormURLEncoding.encode(parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }).utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        let body = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
    }
}

/// The payload of a compact JWS, unverified (the test reads what the server put in).
func jwtPayload(_ token: String) throws -> [String: Any] {
    let parts = token.split(separator: ".")
    guard parts.count == 3, let data = Base64URL.decode(String(parts[1])),
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { throw FixtureError("not a JWS") }
    return object
}

/// A server clock the test moves forward.
final class ServerTime: Sendable {
    private let offset = Mutex<TimeInterval>(0)
    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    var now: @Sendable () -> Date { { [self] in Date().addingTimeInterval(offset.withLock { $0 }) } }
}

