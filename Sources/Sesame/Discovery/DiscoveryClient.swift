import Foundation
import Logging
import SesameProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches and caches the provider's metadata (OpenID Connect Discovery 1.0 §4, RFC 8414 §3).
///
/// One fetch at a time: concurrent callers share it. The document's `issuer` must equal the
/// configured issuer exactly (§4.3), and its endpoints must use https (or http on a loopback
/// issuer during development).
actor DiscoveryClient {
    private let issuer: URL
    private let http: ProviderHTTP
    private let logger: Logger
    private var cached: ProviderMetadata?
    private var inFlight: Task<Result<ProviderMetadata, SesameError>, Never>?

    init(issuer: URL, http: ProviderHTTP, logger: Logger) {
        self.issuer = issuer
        self.http = http
        self.logger = logger
    }

    /// The provider metadata, fetched on first use.
    func metadata() async throws(SesameError) -> ProviderMetadata {
        if let cached { return cached }
        let task: Task<Result<ProviderMetadata, SesameError>, Never>
        if let inFlight {
            task = inFlight
        } else {
            let issuer = issuer, http = http, logger = logger
            task = Task { await Self.fetch(issuer: issuer, http: http, logger: logger) }
            inFlight = task
        }
        let result = await task.value
        inFlight = nil
        if case .success(let metadata) = result { cached = metadata }
        return try result.get()
    }

    /// The discovery URL: the issuer with `/.well-known/openid-configuration` appended (§4.1).
    static func discoveryURL(for issuer: URL) -> URL {
        var text = issuer.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + "/.well-known/openid-configuration") ?? issuer
    }

    private static func fetch(issuer: URL, http: ProviderHTTP, logger: Logger) async
        -> Result<ProviderMetadata, SesameError>
    {
        let url = discoveryURL(for: issuer)
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        logger.debug("fetching provider metadata", metadata: ["url": "\(url.absoluteString)"])
        do throws(SesameError) {
            let (metadata, _) = try await http.json(ProviderMetadata.self, for: request, what: "discovery")
            try check(metadata, issuer: issuer)
            return .success(metadata)
        } catch {
            logger.warning("discovery failed", metadata: ["error": "\(error)"])
            return .failure(error)
        }
    }

    private static func check(_ metadata: ProviderMetadata, issuer: URL) throws(SesameError) {
        guard metadata.issuer == issuer.absoluteString else {
            throw .protocolViolation(
                "discovery returned issuer \"\(metadata.issuer)\" but the configured issuer is \"\(issuer.absoluteString)\" (OpenID Connect Discovery §4.3); fix the issuer in the configuration")
        }
        let loopback = LoopbackHost.contains(issuer.host ?? "")
        let endpoints: [URL?] = [
            metadata.authorizationEndpoint, metadata.tokenEndpoint, metadata.jwksURI,
            metadata.userinfoEndpoint, metadata.revocationEndpoint, metadata.endSessionEndpoint,
            metadata.deviceAuthorizationEndpoint,
        ]
        for case let endpoint? in endpoints {
            let scheme = endpoint.scheme?.lowercased()
            guard scheme == "https" || (scheme == "http" && loopback) else {
                throw .protocolViolation("the provider endpoint \(endpoint.absoluteString) does not use https")
            }
        }
    }
}
