import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import SesameResourceServer
import SesameResourceServerHummingbird

/// An API protected by Sesame access tokens: what an app's own backend looks like with
/// ``AccessTokenMiddleware``. `sesame demo` calls it; `sesame example-api` runs it on its own.
///
/// | route | needs |
/// |---|---|
/// | `GET /health` | nothing |
/// | `GET /v1/me` | a valid access token: returns who and what the token is for |
/// | `GET /v1/profile` | the `profile` scope |
/// | `GET /v1/admin` | the `admin` scope (Sesame's demo clients lack it: a 403 `insufficient_scope`) |
public enum ExampleAPI {
    /// The realm of the API's challenges.
    public static let realm = "example-api"

    /// The scopes the API understands (its protected resource metadata's `scopes_supported`).
    public static let scopes = ["profile", "admin"]

    /// The API's routes behind the middleware. `certificateProxies`: the TLS-terminating proxies
    /// whose `Client-Cert` header names the client certificate (RFC 8705 §3, RFC 9440).
    /// `resource`: the API's identifier (its public URL); with it the API serves its protected
    /// resource metadata (RFC 9728) naming the validator's issuer, and its challenges point there.
    public static func router(
        validator: AccessTokenValidator, certificateProxies: Set<String> = [], resource: String? = nil
    ) throws(ProtectedResourceMetadataError) -> Router<ResourceRequestContext> {
        let router = Router(context: ResourceRequestContext.self)
        router.get("health") { _, _ in "ok\n" }
        let metadata = resource.map {
            ProtectedResourceMetadata(
                resource: $0, authorizationServers: [validator.issuer], scopesSupported: scopes,
                tlsClientCertificateBoundAccessTokens: certificateProxies.isEmpty ? nil : true,
                resourceName: "Sesame example API")
        }
        let guardian: AccessTokenMiddleware<ResourceRequestContext> =
            if let metadata {
                try router.addProtectedResource(
                    metadata, validator: validator, realm: realm, certificateProxies: certificateProxies)
            } else {
                AccessTokenMiddleware(validator: validator, realm: realm, certificateProxies: certificateProxies)
            }
        let api = router.group("v1").add(middleware: guardian)
        api.get("me") { _, context in
            Caller(try context.requireAccessToken())
        }
        api.group("profile").add(
            middleware: RequireScopes<ResourceRequestContext>(["profile"], realm: realm, resourceMetadata: metadata))
            .get { _, context in
                Greeting(message: "Hello, \(try context.requireAccessToken().subject). Your profile scope lets you read this.")
            }
        api.group("admin").add(
            middleware: RequireScopes<ResourceRequestContext>(["admin"], realm: realm, resourceMetadata: metadata))
            .get { _, _ in Greeting(message: "Only tokens with the admin scope see this.") }
        return router
    }

    /// What `/v1/me` answers: the verified claims an API authorizes with (never the token).
    public struct Caller: ResponseEncodable, Sendable {
        public var sub: String
        public var client_id: String
        public var scope: [String]
        public var acr: String?
        public var amr: [String]?
        public var auth_time: Int?
        public var expires_in: Int

        init(_ token: VerifiedAccessToken) {
            sub = token.subject
            client_id = token.clientID
            scope = token.scopes.sorted()
            acr = token.acr
            amr = token.amr
            auth_time = token.authTime.map { Int($0.timeIntervalSince1970) }
            expires_in = max(0, Int(token.expiresAt.timeIntervalSinceNow))
        }
    }

    struct Greeting: ResponseEncodable {
        var message: String
    }
}

/// The example API listening on a port, for the demo and the tests; stop it with ``shutdown()``.
public final class ExampleAPIServer: Sendable {
    /// The API's base URL, `http://host:port`.
    public let baseURL: URL
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(baseURL: URL, group: ServiceGroup, task: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.group = group
        self.task = task
    }

    /// Starts the API on `host:port` (port 0 picks a free one) and returns once it listens.
    /// `resource`: the API's identifier, for its protected resource metadata (RFC 9728); `nil`:
    /// none served.
    public static func start(
        validator: AccessTokenValidator, host: String = "127.0.0.1", port: Int = 0, certificateProxies: Set<String> = [],
        resource: String? = nil, logger: Logger
    ) async throws -> ExampleAPIServer {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: try ExampleAPI.router(validator: validator, certificateProxies: certificateProxies, resource: resource),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "Sesame example API"),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? port)
                continuation.finish()
            },
            logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else {
            let reason: String
            if case .failure(let error) = await task.result { reason = "\(error)" } else { reason = "it stopped at once" }
            throw ExampleAPIStartError(description: "the example API could not listen on \(host):\(port): \(reason)")
        }
        let hostInURL = host.contains(":") ? "[\(host)]" : host
        guard let url = URL(string: "http://\(hostInURL):\(bound)") else {
            await group.triggerGracefulShutdown()
            throw ExampleAPIStartError(description: "\(host) is not a host name")
        }
        return ExampleAPIServer(baseURL: url, group: group, task: task)
    }

    /// Stops listening; in-flight requests finish.
    public func shutdown() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }

    /// Waits until the API stops.
    public func wait() async throws {
        try await task.value
    }
}

/// The example API could not start.
public struct ExampleAPIStartError: Error, CustomStringConvertible {
    public let description: String
}
