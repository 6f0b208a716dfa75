import Crypto
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The Sesame identity server (an OpenID provider) as a library, named apart from its module
/// `SesameServer`: ``start(_:logger:)`` returns a ``RunningServer`` that accepts connections;
/// the `sesame serve` command and the tests use it.
public enum IdentityServer {
    /// Opens the store, ensures keys, applies the seed, binds, and returns once the server
    /// accepts connections.
    public static func start(_ configuration: ServerConfiguration, logger: Logger) async throws -> RunningServer {
        if let issuer = configuration.issuer { try validateIssuer(issuer) }
        try configuration.connectionLimits.validate()
        try StringTables.requireResources()
        try configuration.dataDirectory.prepare()
        if OwnerOnlyFiles.isOpenToOthers(directory: configuration.dataDirectory.url) {
            logger.warning(
                "the data directory is open to other users; its files are kept 0600, but restrict it with chmod 700",
                metadata: [
                    "data_dir": .string(configuration.dataDirectory.url.path),
                    "mode": .string(OwnerOnlyFiles.modeText(directory: configuration.dataDirectory.url)),
                ])
        }
        let metrics = configuration.metrics == nil ? ServerMetrics.off : ServerMetrics.prometheus()
        let store = try await SQLIdentityStore.open(
            configuration.storeLocation, logger: logger, clientCacheLifetime: configuration.clientCacheLifetime,
            metrics: StoreMetrics(factory: metrics.factory))
        do {
            let masterKey = try await configuration.dataDirectory.masterKey()
            let keyRing = KeyRing(
                store: store, masterKey: masterKey, logger: logger, now: configuration.now,
                rsaKeySource: configuration.rsaKeySource)
            try await keyRing.ensureKeys()
            keyRing.followStoreChanges()
            if let seedFile = configuration.seedFile {
                let seed = try SeedConfiguration.load(from: seedFile)
                _ = try await Seeder(store: store, hasher: configuration.passwordHasher).apply(seed)
            }
            let messageSender = try configuration.resolvedMessageSender(store: store, keyRing: keyRing, logger: logger)
            return try await listen(
                configuration, store: store, messageSender: messageSender, keyRing: keyRing, masterKey: masterKey,
                metrics: metrics, logger: logger)
        } catch {
            try? await store.close()
            throw error
        }
    }

    private static func listen(
        _ configuration: ServerConfiguration, store: SQLIdentityStore, messageSender: any MessageSender,
        keyRing: KeyRing, masterKey: SymmetricKey, metrics: ServerMetrics, logger: Logger
    ) async throws -> RunningServer {
        // The issuer may depend on the bound port, and the router depends on the issuer, so the
        // responder is resolved lazily once the port is known.
        let routerSlot = RouterResponderSlot()
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let responder = DeferredResponder(slot: routerSlot)
        let limits = configuration.connectionLimits
        let cap = ConnectionCap(maximum: limits.maximumConnections, logger: logger)
        let staticDocuments = StaticDocuments()
        // No idle timeout of Hummingbird's: the ConnectionGuard keeps it, and also sees the
        // requests the StaticDocumentResponder answers before Hummingbird's codec.
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionGuardInstaller(limits: limits, cap: cap, staticDocuments: staticDocuments)],
            idleTimeout: nil)
        // RFC 8705: the client CA file is read at start; an unreadable one stops the start.
        let clientTrust = try configuration.mutualTLS?.clientCAFile.map { try ClientCertificateTrust(pemFile: $0, now: configuration.now) }
        // With a port of its own for mTLS (RFC 8705 §5), the main port asks for no certificate.
        let mutualTLSPort = configuration.mutualTLS?.port
        let tls = try configuration.tls.map {
            try ServerTLS(
                files: $0, requestsClientCertificates: configuration.mutualTLS != nil && mutualTLSPort == nil,
                clientTrust: clientTrust)
        }
        let app = Application(
            responder: responder,
            server: tls.map { tls in
                HTTPServerBuilder { responder in
                    ReloadableTLSChannel(base: HTTP1Channel(responder: responder, configuration: http1), tls: tls)
                }
            } ?? .http1(configuration: http1),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: StaticDocuments.serverField),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? configuration.port)
                portContinuation.finish()
            },
            logger: logger)
        var services: [any Service] = [app]
        let (mutualTLSPorts, mutualTLSPortContinuation) = AsyncStream.makeStream(of: Int.self)
        var mutualTLS: ServerTLS?
        if let mutualTLSPort {
            guard let files = configuration.tls else { throw ServerStartError.mutualTLSPortWithoutTLS }
            let listener = try ServerTLS(files: files, requestsClientCertificates: true, clientTrust: clientTrust)
            mutualTLS = listener
            services.append(
                Application(
                    responder: responder,
                    server: HTTPServerBuilder { responder in
                        ReloadableTLSChannel(base: HTTP1Channel(responder: responder, configuration: http1), tls: listener)
                    },
                    configuration: ApplicationConfiguration(
                        address: .hostname(configuration.host, port: mutualTLSPort), serverName: StaticDocuments.serverField),
                    onServerRunning: { channel in
                        mutualTLSPortContinuation.yield(channel.localAddress?.port ?? mutualTLSPort)
                        mutualTLSPortContinuation.finish()
                    },
                    logger: logger))
        } else {
            mutualTLSPortContinuation.finish()
        }
        let audit =
            configuration.auditLogEnabled ? AuditLog(store: store, now: configuration.now, logger: logger) : AuditLog.off
        if configuration.auditLogEnabled { services.append(audit.writer()) }
        var rateLimits: RequestRateLimits?
        if configuration.rateLimits != .off {
            let limiter = RateLimiter(
                policy: configuration.rateLimits, now: configuration.now,
                shared: configuration.sharesRateLimits ? store : nil, logger: logger)
            rateLimits = RequestRateLimits(policy: configuration.rateLimits, limiter: limiter, audit: audit)
            if configuration.sharesRateLimits { services.append(limiter.synchronizer()) }
        }
        var challenges: ChallengeGate?
        if !configuration.challenges.isOff {
            let counters = RateLimiter(
                policy: RateLimitPolicy(), now: configuration.now,
                shared: configuration.sharesRateLimits ? store : nil, logger: logger)
            challenges = ChallengeGate(
                policy: configuration.challenges, masterKey: masterKey, counters: counters, redemptions: store,
                audit: audit, now: configuration.now)
            if configuration.sharesRateLimits { services.append(counters.synchronizer()) }
        }
        let (metricsPorts, metricsPortContinuation) = AsyncStream.makeStream(of: Int.self)
        if case .port(let metricsPort) = configuration.metrics {
            services.append(
                MetricsListener.application(
                    metrics: metrics, host: configuration.host, port: metricsPort, bound: metricsPortContinuation,
                    logger: logger))
        } else {
            metricsPortContinuation.finish()
        }
        // The overview's "processes seen" (issue #47): one beat now, then every 15 s.
        let heartbeat = ProcessHeartbeat(store: store, now: configuration.now, logger: logger)
        await heartbeat.beat()
        services.append(heartbeat.service())
        if let trim = AllocatorTrim.service() { services.append(trim) }
        if let interval = configuration.keyChangeInterval {
            services.append(KeyChangeWatcher(keyRing: keyRing, interval: interval, logger: logger))
        }
        if let interval = configuration.purgeInterval {
            var purge = ExpiredDataPurge(
                identityStore: store, accountStore: store, mfaStore: store, auditStore: store,
                auditRetention: configuration.auditRetention, interval: interval, now: configuration.now,
                logger: logger)
            if configuration.registration.mode != .off {
                purge.unusedRegistrations = (store, configuration.registration.unusedClientLifetime)
            }
            services.append(purge)
        }
        var groupConfiguration = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .milliseconds(Int64(limits.shutdownTimeout * 1000))
        let group = ServiceGroup(configuration: groupConfiguration)
        let task = Task {
            defer {
                portContinuation.finish()
                metricsPortContinuation.finish()
                mutualTLSPortContinuation.finish()
            }
            try await group.run()
        }

        var iterator = portStream.makeAsyncIterator()
        guard let port = await iterator.next() else {
            routerSlot.fail()
            do {
                try await task.value
            } catch {
                throw ServerStartError.bindFailed(
                    host: configuration.host, port: configuration.port, reason: "\(error)")
            }
            throw ServerStartError.bindFailed(
                host: configuration.host, port: configuration.port, reason: "the server stopped at once")
        }
        var metricsIterator = metricsPorts.makeAsyncIterator()
        let metricsPort = await metricsIterator.next()
        if case .port(let asked) = configuration.metrics, metricsPort == nil {
            routerSlot.fail()
            await group.triggerGracefulShutdown()
            var reason = "the metrics listener stopped at once"
            if case .failure(let error) = await task.result { reason = "\(error)" }
            throw ServerStartError.bindFailed(host: configuration.host, port: asked, reason: reason)
        }
        var mutualTLSIterator = mutualTLSPorts.makeAsyncIterator()
        let mutualTLSBound = await mutualTLSIterator.next()
        if let asked = mutualTLSPort, mutualTLSBound == nil {
            routerSlot.fail()
            await group.triggerGracefulShutdown()
            var reason = "the mutual TLS listener stopped at once"
            if case .failure(let error) = await task.result { reason = "\(error)" }
            throw ServerStartError.bindFailed(host: configuration.host, port: asked, reason: reason)
        }
        let issuer =
            configuration.issuer
            ?? URL(string: "\(tls == nil ? "http" : "https")://\(hostForURL(configuration.issuerHost ?? configuration.host)):\(port)")!
        let routes: Set<String>
        do {
            try await AdminConsoleClient.ensure(store: store, issuer: issuerIdentifier(issuer), now: configuration.now())
            try await AdminCLIClient.ensure(store: store, now: configuration.now())
            let provider = try Provider(
                settings: configuration.providerSettings(issuer: issuer), store: store, keyRing: keyRing, masterKey: masterKey,
                passwordHasher: configuration.passwordHasher, blockingWork: NIOBlockingWorkPool.shared,
                messageSender: messageSender, localizer: StringTableLocalizer(), upstream: NIOUpstreamTransport.shared,
                metrics: metrics, audit: audit, logger: logger, now: configuration.now)
            var front = ServerFront(
                provider: provider, renderer: try PageRenderer(localizer: StringTableLocalizer()),
                localizer: StringTableLocalizer(),
                masterKey: masterKey, metrics: metrics,
                rateLimits: rateLimits, challenges: challenges, trustedProxies: configuration.trustedProxies,
                staticDocuments: staticDocuments, logger: logger,
                mutualTLS: configuration.mutualTLS.map { _ in MutualTLSClientAuthentication(trust: clientTrust) })
            // RFC 8705 §5: the aliases name the issuer's host on the mTLS port.
            front.mutualTLSOrigin = mutualTLSBound.map { "https://\(hostForURL(issuer.host ?? configuration.host)):\($0)" }
            var metricsToken: String?
            if case .bearerToken(let token) = configuration.metrics { metricsToken = token }
            let router = try SesameRouter.build(provider, front: front, metricsToken: metricsToken)
            routes = Set(router.routes.map { "\($0.method.rawValue) \($0.path)" })
            routerSlot.set(router.buildResponder())
        } catch {
            routerSlot.fail()
            await group.triggerGracefulShutdown()
            _ = try? await task.value
            throw error
        }
        logger.info("sesame server listening", metadata: ["issuer": .string(issuerIdentifier(issuer)), "port": .stringConvertible(port)])
        return RunningServer(
            issuer: issuer, port: port, metricsPort: metricsPort, store: store, keyRing: keyRing, messageSender: messageSender,
            audit: audit, routes: routes, staticDocuments: staticDocuments, tls: [tls, mutualTLS].compactMap { $0 },
            mutualTLSPort: mutualTLSBound, group: group, task: task)
    }

    /// OIDC Discovery §3 / RFC 8414 §2: an absolute URL without query or fragment.
    static func validateIssuer(_ issuer: URL) throws {
        guard let scheme = issuer.scheme, scheme == "https" || scheme == "http", issuer.host != nil,
            issuer.query == nil, issuer.fragment == nil
        else { throw ServerStartError.invalidIssuer(issuer.absoluteString) }
    }

    /// The `iss` string: the issuer URL without a trailing slash.
    public static func issuerIdentifier(_ issuer: URL) -> String {
        var text = issuer.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    private static func hostForURL(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}
