import SesameTesting
import Foundation
import StoreTesting
import SesameProtocol
import Testing
@testable import SesameServer

/// The account APIs as a test sees them: JSON requests over real HTTP, the outbox, and the
/// hosted sign-in for arbitrary credentials.
struct AccountAPI {
    let server: TestServer
    let browser: HTTPTestClient

    init(_ server: TestServer) {
        self.server = server
        self.browser = server.client()
    }

    /// A JSON request; `body` is encoded as is (`[String: Any]` via JSONSerialization).
    func call(
        _ method: String, _ path: String, _ body: [String: Any]? = nil, token: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> TestResponse {
        var allHeaders = headers
        if let token { allHeaders["Authorization"] = "Bearer \(token)" }
        var data: Data?
        if let body {
            data = try JSONSerialization.data(withJSONObject: body)
            allHeaders["Content-Type"] = allHeaders["Content-Type"] ?? "application/json"
        }
        return try await browser.request(method, path, body: data, headers: allHeaders)
    }

    func post(_ path: String, _ body: [String: Any], token: String? = nil) async throws -> TestResponse {
        try await call("POST", path, body, token: token)
    }

    /// `POST /api/signup` for the native test app.
    func signUp(
        email: String, password: String = AccountAPI.password, extra: [String: Any] = [:]
    ) async throws -> TestResponse {
        var body: [String: Any] = ["client_id": Fixtures.nativeApp, "email": email, "password": password]
        body.merge(extra) { $1 }
        return try await post("/api/signup", body)
    }

    static let password = "a long sign-up password"

    // MARK: Outbox

    var outbox: OutboxMessageSender {
        get throws { try #require(server.running.messageSender as? OutboxMessageSender) }
    }

    /// The messages to `address` for `purpose`, oldest first.
    func messages(to address: String, purpose: String? = nil) async throws -> [OutboundMessage] {
        try await outbox.messages(to: address, purpose: purpose)
    }

    /// The 6-digit code in the latest message to `address` for `purpose`.
    func latestCode(to address: String, purpose: String) async throws -> String {
        let message = try #require(try await messages(to: address, purpose: purpose).last, "no \(purpose) message to \(address)")
        return try #require(Self.code(in: message.body), "no code in \(message.body)")
    }

    static func code(in text: String) -> String? {
        let digits = text.split { !$0.isNumber }.first { $0.count == 6 }
        return digits.map { String($0) }
    }

    // MARK: Sign-in

    /// Hosted-form sign-in and code exchange with the given credentials; `nil` when the form
    /// refuses them.
    func signIn(_ username: String, _ password: String) async throws -> TokenResponse? {
        let client = server.client()
        let flow = OAuthFlow(browser: client)
        let attempt = OAuthFlow.Attempt()
        let page = try await flow.authorize(attempt)
        try #require(page.status == 200, "expected the login form, got \(page.status)")
        let redirect = try await flow.submitLogin(page: page, username: username, password: password)
        guard redirect.status == 303, let code = redirect.locationQuery["code"] else { return nil }
        let response = try await flow.exchange(code, attempt: attempt)
        try #require(response.status == 200, "token exchange failed: \(response.text)")
        return try response.json(TokenResponse.self)
    }

    /// Signs in the seeded user.
    func signInAlice() async throws -> TokenResponse {
        try #require(try await signIn(Fixtures.username, Fixtures.password))
    }
}

extension TestResponse {
    /// The APIError body.
    var apiError: APIError? { try? json(APIError.self) }

    /// `field: code` pairs of `error_details`, sorted.
    var detailCodes: [String] {
        (apiError?.errorDetails ?? []).map { "\($0.field): \($0.code)" }.sorted()
    }
}

/// Runs `body` with a fresh seeded server and its account API.
func withAccountAPI<T>(_ backend: StoreBackend = .sqlite, _ body: (AccountAPI) async throws -> T) async throws -> T {
    try await withTestServer(backend) { server in try await body(AccountAPI(server)) }
}
