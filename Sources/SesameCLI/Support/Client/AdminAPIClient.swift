import Foundation
import Sesame
import SesameProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The admin API of a running server (`/admin/api/`, docs/admin.md) as `sesame admin` calls it:
/// through the SDK's `data(for:)` with the operator's session of the `sesame-admin-cli` client
/// (kept in `<config-dir>/apps/sesame-admin-cli`), which adds the token (DPoP when bound) and
/// refreshes it. A refusal becomes one line with what to do (the API's `error_description`).
struct AdminAPIClient: Sendable {
    static let clientID = "sesame-admin-cli"

    let session: ClientSession

    /// The operator's session in the config directory, or "sign in first".
    static func open(_ option: ConfigDirOption) throws -> AdminAPIClient {
        let directory = option.directory.app(clientID)
        guard let profile = try CLIProfile.load(from: directory) else {
            throw CLIError(
                "not signed in to a server's admin API",
                hint: "Run `sesame admin login https://id.example.com` first.", exitCode: CLIError.notSignedInExitCode)
        }
        return AdminAPIClient(session: try ClientSession.open(directory: directory, profile: profile))
    }

    var issuer: URL { session.profile.issuer }

    func get<T: Decodable>(_ path: String, query: [String: String] = [:], as type: T.Type) async throws -> T {
        try JSONDecoder().decode(type, from: try await send("GET", path, query: query))
    }

    func post<T: Decodable>(_ path: String, json body: (any Encodable)? = nil, as type: T.Type) async throws -> T {
        try JSONDecoder().decode(type, from: try await send("POST", path, body: body))
    }

    /// The raw answer of a successful request.
    func send(
        _ method: String, _ path: String, query: [String: String] = [:], body: (any Encodable)? = nil
    ) async throws -> Data {
        guard var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false) else {
            throw CLIError("\(issuer.absoluteString) is not a URL")
        }
        // `path`'s segments are percent-encoded already; a `+` in a value is sent encoded (a form
        // decoder would read it as a space).
        let base = components.percentEncodedPath.trimmingSuffix("/")
        components.percentEncodedPath = base + path
        if !query.isEmpty {
            components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        }
        guard let url = components.url else { throw CLIError("\(path) is not a path of \(issuer.absoluteString)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = try JSONEncoder().encode(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await session.client.data(for: request)
        guard (200..<300).contains(response.statusCode) else { throw Self.refusal(data, status: response.statusCode) }
        return data
    }

    /// The API's error as one line, with the step to take.
    static func refusal(_ data: Data, status: Int) -> CLIError {
        let error = try? JSONDecoder().decode(APIError.self, from: data)
        let message = error?.errorDescription ?? error?.error ?? "HTTP \(status)"
        switch status {
        case 401:
            return CLIError(
                "the admin API refused the sign-in: \(message)",
                hint: "Run `sesame admin login` again (the session lasts a working day; some changes need a sign-in of the last 5 minutes).",
                exitCode: CLIError.notSignedInExitCode)
        case 403:
            return CLIError("refused: \(message)", hint: "Ask an administrator for the role it names.")
        case 404:
            return CLIError("not found: \(message)")
        default:
            return CLIError(message)
        }
    }

    /// The user a command names: an id, else the user whose username or email is exactly it.
    func user(_ selector: String) async throws -> AdminUserSummary {
        let escaped = selector.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~"))) ?? selector
        if let detail = try? await get("/admin/api/users/" + escaped, as: AdminUserDetail.self) { return detail.user }
        let page = try await get("/admin/api/users", query: ["q": selector, "limit": "10"], as: AdminUserPage.self)
        let lowered = selector.lowercased()
        guard let user = page.users.first(where: { $0.username == lowered || $0.email == lowered }) else {
            throw CLIError(
                "no user is \(selector)", hint: "Search with `sesame admin users search \(selector.prefix(3))`.")
        }
        return user
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
