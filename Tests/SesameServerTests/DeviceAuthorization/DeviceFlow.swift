import Foundation
import SesameProtocol
import SesameServer
import SesameTesting
import Testing

/// Drives the device authorization grant (RFC 8628) over real HTTP: the device's requests
/// (`/device_authorization`, polls at `/token`) and a person's browser on `/device` (code form,
/// hosted login, the question, the answer), reading every page as a user agent would.
struct DeviceFlow {
    /// A public TV app registered for the device grant only (and refresh).
    static let tvApp = "tv-app"
    static let tvName = "Living Room TV App"

    let device: HTTPTestClient
    var clientID = DeviceFlow.tvApp

    /// Registers ``tvApp`` (and `extra` changes to it) on `server`.
    static func registerTV(
        on server: TestServer, _ change: (inout ClientRecord) -> Void = { _ in }
    ) async throws {
        var client = ClientRecord(
            clientID: tvApp, name: tvName, redirectURIs: [], grantTypes: [.deviceCode, .refreshToken],
            allowedScopes: ["openid", "profile", "email", "offline_access"])
        change(&client)
        try await server.store.upsertClient(client)
    }

    /// `POST /device_authorization`.
    func start(scope: String = "openid profile offline_access", extra: [String: String] = [:]) async throws -> TestResponse {
        try await device.postForm("/device_authorization", ["client_id": clientID, "scope": scope].merging(extra) { $1 })
    }

    /// A started request's codes (the answer must be 200).
    func codes(scope: String = "openid profile offline_access", extra: [String: String] = [:]) async throws
        -> DeviceAuthorizationResponse
    {
        let response = try await start(scope: scope, extra: extra)
        try #require(response.status == 200, "\(response.text)")
        return try response.json(DeviceAuthorizationResponse.self)
    }

    /// One poll at `/token`.
    func poll(_ deviceCode: String, headers: [String: String] = [:], via client: HTTPTestClient? = nil) async throws -> TestResponse {
        try await (client ?? device).postForm(
            "/token", ["grant_type": DeviceAuthorization.grantType, "device_code": deviceCode, "client_id": clientID],
            headers: headers)
    }

    /// The `error` of a refused poll.
    static func error(_ response: TestResponse) -> String? {
        (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["error"] as? String
    }
}

/// A person's browser on the verification page.
struct DeviceApprover {
    let browser: HTTPTestClient

    /// `GET /device` then `POST /device` with `typed`: the answer to the code form.
    func enter(_ typed: String, query: [String: String] = [:]) async throws -> TestResponse {
        let page = try await browser.get("/device", query: query)
        try #require(page.status == 200, "\(page.text)")
        var fields = HTMLForm(html: page.text).fields
        fields["user_code"] = typed
        return try await browser.postForm("/device", fields)
    }

    /// From the code form's 303 through `/authorize` (the login form when there is no session)
    /// to the callback: the question page.
    func signIn(after entered: TestResponse) async throws -> TestResponse {
        try #require(entered.status == 303, "code refused: \(entered.status) \(entered.text)")
        var page = try await browser.get(try #require(entered.location))
        if page.status == 200, HTMLForm(html: page.text).action == "/login" {
            var fields = HTMLForm(html: page.text).fields
            fields["username"] = Fixtures.username
            fields["password"] = Fixtures.password
            page = try await browser.postForm("/login", fields)
        }
        try #require(page.status == 303, "sign-in did not redirect: \(page.status) \(page.text)")
        let location = try #require(page.location)
        #expect(location.contains("/device/callback?"), "\(location)")
        return try await browser.get(location)
    }

    /// The question page's form with `decision` (`approve` or `deny`), not yet submitted.
    func answerForm(_ question: TestResponse, _ decision: String) throws -> [String: String] {
        try #require(question.status == 200, "\(question.text)")
        var fields = HTMLForm(html: question.text).fields
        fields["decision"] = decision
        return fields
    }

    /// The form answering `userCode`'s question with `decision`, after entering the code and
    /// signing in: what a forged or repeated submission starts from.
    func answerForm(for userCode: String, _ decision: String) async throws -> [String: String] {
        try answerForm(try await signIn(after: try await enter(userCode)), decision)
    }

    /// Submits the question page's form with `decision` (`approve` or `deny`).
    func answer(_ question: TestResponse, _ decision: String) async throws -> TestResponse {
        try await browser.postForm("/device/decision", try answerForm(question, decision))
    }

    /// The whole approval (or denial) of `userCode`: the final page.
    func decide(_ userCode: String, _ decision: String = "approve") async throws -> TestResponse {
        try await answer(try await signIn(after: try await enter(userCode)), decision)
    }
}
