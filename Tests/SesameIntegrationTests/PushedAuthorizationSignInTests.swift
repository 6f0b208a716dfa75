import Foundation
import Logging
import Sesame
import SesameProtocol
import SesameStore
import SesameTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK's browser sign-in with pushed authorization requests (RFC 9126) against the real
/// server: the browser sees only `client_id` and the `request_uri`.
@Suite("SDK: pushed authorization requests")
struct PushedAuthorizationSignInTests {
    /// A headless agent that records the URL it was asked to open, then signs in there.
    final class RecordingAgent: Sendable {
        let opened = LockedURLs()
        func agent(_ server: IntegrationServer) -> HeadlessBrowserAgent {
            let login = HostedLogin(username: IntegrationServer.username, password: IntegrationServer.password)
            let opened = opened
            return HeadlessBrowserAgent { url in
                opened.append(url)
                return try await login.signIn(at: url, redirectURI: URL(string: IntegrationServer.redirectURI))
            }
        }
    }

    final class LockedURLs: @unchecked Sendable {
        private let lock = NSLock()
        private var urls: [URL] = []
        func append(_ url: URL) { lock.withLock { urls.append(url) } }
        var all: [URL] { lock.withLock { urls } }
    }

    func client(_ server: IntegrationServer, pushed: SesameConfiguration.PushedAuthorization) -> SesameClient {
        var configuration = server.configuration()
        configuration.pushedAuthorization = pushed
        var logger = Logger(label: "sesame.it.par")
        logger.logLevel = .error
        return SesameClient(configuration: configuration, store: InMemoryCredentialStore(), logger: logger)
    }

    static func query(_ url: URL) -> [String: String] {
        Dictionary(
            (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") },
            uniquingKeysWith: { first, _ in first })
    }

    @Test("on a server that requires PAR the SDK pushes (when_required): the browser URL carries client_id and request_uri only")
    func pushesWhenRequired() async throws {
        try await withServer(configure: { $0.requirePushedRequests = true }) { server in
            let recorder = RecordingAgent()
            let account = try await client(server, pushed: .whenRequired).signIn(with: recorder.agent(server))
            #expect(account.issuer == server.issuer.absoluteString)
            let url = try #require(recorder.opened.all.first)
            let query = Self.query(url)
            #expect(Set(query.keys) == ["client_id", "request_uri"], "\(url)")
            #expect(query["request_uri"]?.hasPrefix("urn:ietf:params:oauth:request_uri:") == true)
        }
    }

    @Test("with never, a server that requires PAR refuses the sign-in and the SDK says so")
    func neverAgainstRequired() async throws {
        try await withServer(configure: { $0.requirePushedRequests = true }) { server in
            let recorder = RecordingAgent()
            do {
                _ = try await client(server, pushed: .never).signIn(with: recorder.agent(server))
                Issue.record("the sign-in succeeded without a push")
            } catch let error as SesameError {
                #expect(error.apiError?.error == "invalid_request", "\(error)")
            }
        }
    }

    @Test("always pushes even where not required; a client registered with require_pushed_requests then signs in; when_required does not push there and is refused")
    func alwaysForAClientThatMustPush() async throws {
        try await withServer { server in
            var record = try #require(try await server.server.store.client(id: IntegrationServer.clientID))
            record.requirePushedRequests = true
            try await server.server.store.upsertClient(record)
            let recorder = RecordingAgent()
            _ = try await client(server, pushed: .always).signIn(with: recorder.agent(server))
            #expect(Self.query(try #require(recorder.opened.all.first))["request_uri"] != nil)
            await #expect(throws: SesameError.self) {
                _ = try await client(server, pushed: .whenRequired).signIn(with: RecordingAgent().agent(server))
            }
        }
    }

    @Test("pushed_authorization in the JSON configuration; absent is when_required; an unknown value is refused")
    func configurationJSON() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-par-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func load(_ extra: String) throws -> SesameConfiguration {
            let file = directory.appendingPathComponent("\(UUID().uuidString).json")
            let json = #"{"issuer":"https://id.example.com","client_id":"app","redirect_uri":"com.example.app:/cb""# + extra + "}"
            try Data(json.utf8).write(to: file)
            return try SesameConfiguration.load(from: file)
        }
        #expect(try load(#","pushed_authorization":"always""#).pushedAuthorization == .always)
        #expect(try load(#","pushed_authorization":"never""#).pushedAuthorization == .never)
        #expect(try load("").pushedAuthorization == .whenRequired)
        #expect(throws: SesameError.self) { _ = try load(#","pushed_authorization":"sometimes""#) }
    }
}
