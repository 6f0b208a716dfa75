import Foundation

/// What the server keeps of federation providers for its life: how it reaches them
/// (``UpstreamTransport``), their signing keys (``ProviderKeys``) and, for the hosted
/// "Continue with …" sign-in, their endpoints (``UpstreamProvider``).
struct FederationClients: Sendable {
    let transport: any UpstreamTransport
    let keys: ProviderKeys
    let endpoints: UpstreamProvider

    init(transport: any UpstreamTransport = AsyncHTTPUpstreamTransport.shared, now: @escaping @Sendable () -> Date) {
        self.transport = transport
        keys = ProviderKeys(transport: transport, now: now)
        endpoints = UpstreamProvider(transport: transport, now: now)
    }
}
