import Foundation
import Sesame
import SesameLoopback
import SesameProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What `sesame curl` does for an API it is not configured for (issue #49): from the API's 401
/// alone to a signed-in profile, as an AI agent speaking the Model Context Protocol would.
/// 1. The 401's `resource_metadata` (RFC 9728 §5.1) gives the API's metadata, whose `resource`
///    must be a prefix of the URL asked for (§3.3) and whose `authorization_servers` name the issuer.
/// 2. The issuer's metadata (RFC 8414) gives `registration_endpoint`; without one, the answer says
///    how to sign in with a client the operator registered.
/// 3. The CLI registers itself (RFC 7591): a public client with PKCE and a loopback redirect.
/// 4. The profile remembers the issuer, the client and the API; the browser sign-in asks for the
///    API (RFC 8707), and the request goes out with a token for it alone.
struct APIDiscovery {
    /// What an API's metadata says.
    struct Found: Sendable {
        var resource: URL
        var issuer: URL
        var scopes: [String]
    }

    /// Steps 1 and 2: `nil` when `url` does not answer, or answers without a challenge naming
    /// metadata.
    static func discover(_ url: URL) async throws -> Found? {
        var probe = URLRequest(url: url)
        probe.httpMethod = "GET"
        guard let (_, response) = try? await fetch(probe),
            response.statusCode == 401 || response.statusCode == 403,
            let challenge = response.value(forHTTPHeaderField: "WWW-Authenticate"),
            let metadataURL = parameter("resource_metadata", in: challenge).flatMap(URL.init(string:))
        else { return nil }
        let metadata = try await json(URLRequest(url: metadataURL), what: "the API's metadata (RFC 9728)")
        guard let resourceText = metadata["resource"] as? String, let resource = URL(string: resourceText),
            url.absoluteString.hasPrefix(resourceText)
        else {
            throw CLIError(
                "the API's metadata at \(metadataURL.absoluteString) names another resource than \(url.absoluteString)",
                hint: "RFC 9728 section 3.3: a client uses metadata only for the resource it asked for; check the API's configuration.")
        }
        guard let issuerText = (metadata["authorization_servers"] as? [String])?.first, let issuer = URL(string: issuerText),
            ["https", "http"].contains(issuer.scheme?.lowercased() ?? "")
        else {
            throw CLIError("the API's metadata names no authorization server", hint: "Ask the API's operator for its issuer.")
        }
        return Found(resource: resource, issuer: issuer, scopes: metadata["scopes_supported"] as? [String] ?? [])
    }

    /// Step 3: registers the CLI at the issuer; its client id.
    static func register(at issuer: URL, redirectURI: URL) async throws -> String {
        let discovery = try await json(
            URLRequest(url: issuer.appendingPathComponent(".well-known/oauth-authorization-server")),
            what: "the authorization server's metadata (RFC 8414)")
        guard let endpoint = (discovery["registration_endpoint"] as? String).flatMap(URL.init(string:)) else {
            throw CLIError(
                "\(issuer.absoluteString) does not let clients register themselves",
                hint: "Sign in with a client its operator registered: sesame login --issuer \(issuer.absoluteString) --client-id <id>")
        }
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(
            ClientRegistrationRequest(
                redirectURIs: [redirectURI.absoluteString], tokenEndpointAuthMethod: "none",
                grantTypes: [GrantType.authorizationCode.rawValue, GrantType.refreshToken.rawValue], clientName: "sesame CLI",
                softwareID: "sesame-cli"))
        let (body, response) = try await fetch(request)
        guard response.statusCode == 201,
            let registered = try? JSONDecoder().decode(ClientRegistrationResponse.self, from: body)
        else {
            let error = (try? JSONDecoder().decode(APIError.self, from: body)).map { "\($0.error): \($0.errorDescription ?? "")" }
            throw CLIError(
                "\(endpoint.absoluteString) refused the registration (HTTP \(response.statusCode)\(error.map { ", \($0)" } ?? ""))",
                hint: "Ask the operator for a client id, then: sesame login --issuer \(issuer.absoluteString) --client-id <id>")
        }
        return registered.clientID
    }

    /// Steps 1 to 4 for `url`, into `directory`: the profile, saved, after the browser sign-in.
    /// Nothing happens when `url` names no authorization server (the caller then says to sign in).
    static func signIn(for url: URL, directory: ConfigDirectory, transport: TransportOptions) async throws {
        guard let found = try await discover(url) else { return }
        Terminal.progress(
            "\(found.resource.absoluteString) is protected by \(found.issuer.absoluteString); registering this CLI there ...")
        let clientID = try await register(at: found.issuer, redirectURI: CLIProfile.defaultRedirectURI)
        var profile = CLIProfile(
            issuer: found.issuer, clientID: clientID, redirectURI: CLIProfile.defaultRedirectURI,
            scopes: ["openid", "offline_access"] + found.scopes.filter { !["openid", "offline_access"].contains($0) })
        profile.apis = [found.resource.absoluteString]
        profile = transport.applied(to: profile)
        let session = try ClientSession.open(directory: directory, profile: profile)
        Terminal.progress("Opening the browser to sign in at \(found.issuer.absoluteString) ...")
        let agent = LoopbackBrowserAgent(opener: EnvironmentBrowserOpener(), timeout: 300)
        _ = try await session.client.signIn(with: agent)
        try profile.save(to: directory)
    }

    private static func fetch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        do {
            let (body, response) = try await URLSession.shared.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            return (body, http)
        } catch {
            throw CLIError(
                "cannot reach \(request.url?.absoluteString ?? "the server") (\(error.localizedDescription))",
                hint: "Check the URL and your network.")
        }
    }

    private static func json(_ request: URLRequest, what: String) async throws -> [String: Any] {
        let (body, response) = try await fetch(request)
        guard response.statusCode == 200, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw CLIError(
                "\(what) at \(request.url?.absoluteString ?? "") did not answer with JSON (HTTP \(response.statusCode))",
                hint: "Check that the API and its authorization server are up.")
        }
        return object
    }

    /// A quoted auth-param of a challenge (RFC 9110 §11.2).
    static func parameter(_ name: String, in challenge: String) -> String? {
        guard let range = challenge.range(of: name + "=\"") else { return nil }
        let rest = challenge[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
