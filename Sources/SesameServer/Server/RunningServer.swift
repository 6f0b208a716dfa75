import Foundation
import ServiceLifecycle

/// A started server. Stop it with ``shutdown()``; ``wait()`` returns when it stops.
public final class RunningServer: Sendable {
    /// The issuer identifier URL, as in discovery.
    public let issuer: URL
    /// The bound TCP port (useful with port 0).
    public let port: Int
    /// The bound port of the separate metrics listener (``MetricsExposure/port(_:)``), if any.
    public let metricsPort: Int?
    public let store: any ProviderStore
    public let keyRing: KeyRing
    /// Where email and SMS go; an ``OutboxMessageSender`` unless configured otherwise.
    public let messageSender: any MessageSender
    let audit: AuditLog
    /// Every route the router serves, as `METHOD /path/{parameter}` (the OpenAPI document's
    /// coverage is checked against it).
    let routes: Set<String>
    /// The documents answered on the event loop (``StaticDocumentResponder``).
    let staticDocuments: StaticDocuments
    /// The TLS of each listener (the main port, the mTLS port), reloaded together.
    let tls: [ServerTLS]
    /// The bound port that asks for client certificates (RFC 8705 §5), when it is separate.
    public let mutualTLSPort: Int?
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    init(
        issuer: URL, port: Int, metricsPort: Int?, store: any ProviderStore, keyRing: KeyRing,
        messageSender: any MessageSender, audit: AuditLog, routes: Set<String>, staticDocuments: StaticDocuments,
        tls: [ServerTLS], mutualTLSPort: Int?, group: ServiceGroup, task: Task<Void, any Error>
    ) {
        self.tls = tls
        self.mutualTLSPort = mutualTLSPort
        self.routes = routes
        self.staticDocuments = staticDocuments
        self.issuer = issuer
        self.port = port
        self.metricsPort = metricsPort
        self.store = store
        self.keyRing = keyRing
        self.messageSender = messageSender
        self.audit = audit
        self.group = group
        self.task = task
    }

    /// Waits until the server stops (after ``shutdown()`` or a fatal error).
    public func wait() async throws {
        try await task.value
    }

    /// Writes the buffered audit records to the store now (they are written every 250 ms
    /// anyway); for tools and tests that read the log right after a request.
    public func flushAuditLog() async {
        await audit.flush()
    }

    /// Reads the TLS certificate and key again (`SIGHUP`): new connections use them, open ones
    /// finish on the old. Throws ``TLSFilesError`` (the old certificate stays) when they cannot
    /// serve; `false` when the server speaks plain HTTP.
    @discardableResult
    public func reloadTLS() throws -> Bool {
        guard !tls.isEmpty else { return false }
        for listener in tls { try listener.reload() }
        return true
    }

    /// While no user holds an operator role, a new one-time code for `/admin/bootstrap`
    /// (``AdminBootstrap``); `nil` once someone does. `sesame serve` prints it.
    package func issueAdminBootstrapCode() async throws -> String? {
        try await AdminBootstrap(store: store, audit: audit, now: Date.init).issue()
    }

    /// Graceful stop: no new connections, in-flight requests finish, then the store closes.
    /// Safe to call more than once.
    public func shutdown() async throws {
        await group.triggerGracefulShutdown()
        let result = await task.result
        try await store.close()
        try result.get()
    }
}
