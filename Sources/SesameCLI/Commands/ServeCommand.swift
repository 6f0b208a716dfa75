import ArgumentParser
import Foundation
import Logging
import SesameProvider
import SesameServer
import SesameStore

/// `sesame serve`: the OpenID provider on the embedded default (SQLite in `./.sesame`),
/// listening on 127.0.0.1:8080 until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Sesame identity server.",
        discussion: """
            The first stdout line is `Issuer: <url>` (with --port 0 it names the port the \
            system chose). Logs go to stderr. Stops cleanly on Ctrl-C or SIGTERM.
            """)

    @Option(help: "The interface to listen on.")
    var host: String = "127.0.0.1"
    @Option(help: "The TCP port (0 picks a free one).")
    var port: Int = 8080
    @Option(help: "The public issuer URL, when it differs from http://<host>:<port> (e.g. behind TLS).")
    var issuer: String?
    @Option(
        name: .customLong("config"),
        help: """
            A seed file with clients and users, applied at start: JSON (.json) or YAML (.yaml, .yml); \
            other names are read as JSON if they start with {, as YAML otherwise.
            """)
    var seedFile: String?
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info
    @Option(
        name: .customLong("purge-interval"),
        help: "Seconds between deletions of expired codes, tokens and sessions (also done at start; 0 turns it off).")
    var purgeInterval: Int = 600
    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A reverse proxy in front of the server, as an address or CIDR network (repeatable).",
            discussion: "For connections from it, the client address (which password throttling counts) is read from X-Forwarded-For."))
    var trustedProxies: [String] = []
    @Option(
        name: .customLong("thread-scheduling"),
        help: ArgumentHelp(
            "batch (the default on Linux) or unchanged.",
            discussion: "batch runs the server's threads under SCHED_BATCH: under load a woken thread waits for the running one's time slice instead of preempting it (higher throughput, lower p99). unchanged keeps the policy the process was started with."))
    var threadScheduling: ThreadScheduling?
    @Option(help: "Seconds a client has to send a request's line and headers after connecting (slow clients are cut off).")
    var headerTimeout: Double = ConnectionLimits().headerTimeout
    @Option(help: "Seconds an idle keep-alive connection stays open.")
    var idleTimeout: Double = ConnectionLimits().idleTimeout
    @Option(help: "Seconds a client has to send a request body after its headers.")
    var bodyTimeout: Double = ConnectionLimits().bodyTimeout
    @Option(help: "Connections open at once; past it new connections are closed at once.")
    var maxConnections: Int = ConnectionLimits().maximumConnections
    @Option(help: "Seconds requests in progress get to finish at a graceful stop (SIGTERM); then they are cancelled.")
    var shutdownTimeout: Double = ConnectionLimits().shutdownTimeout
    @Flag(
        name: .customLong("require-par"),
        help: "Every client must push its authorization requests to /par first (RFC 9126); discovery says so.")
    var requirePushedRequests = false
    @Flag(
        name: .customLong("dpop-nonce"),
        help: "DPoP proofs must carry a nonce from the server's DPoP-Nonce header (RFC 9449 section 8).")
    var requireDPoPNonce = false
    @OptionGroup var dataDir: DataDirOption
    @OptionGroup var smtp: SMTPOptions
    @OptionGroup var metrics: MetricsOptions
    @OptionGroup var rateLimits: RateLimitOptions
    @OptionGroup var abuse: AbuseProtectionOptions
    @OptionGroup var nativeSSO: NativeSSOOptions
    @OptionGroup var passkeys: PasskeyOptions
    @OptionGroup var sessions: SessionLimitOptions
    @OptionGroup var timing: SignInTimingOptions
    @OptionGroup var registration: RegistrationOptions
    @OptionGroup var tls: TLSOptions
    @OptionGroup var passwordHashing: PasswordHashingOptions

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
        // Bounded: a sleep of Int.max seconds overflows the clock's deadline.
        guard purgeInterval >= 0, purgeInterval <= 31_536_000 else {
            throw ValidationError("--purge-interval must be 0 (off) or a number of seconds up to a year (31536000), e.g. 600.")
        }
        for (name, value) in [
            ("--header-timeout", headerTimeout), ("--idle-timeout", idleTimeout), ("--body-timeout", bodyTimeout),
            ("--shutdown-timeout", shutdownTimeout),
        ]
        where !ConnectionLimits.isValidTimeout(value) {
            throw ValidationError(
                "\(name) must be a number of seconds above 0 (at most \(Int(ConnectionLimits.longestTimeout))), e.g. 30.")
        }
        guard maxConnections >= 1 else {
            throw ValidationError("--max-connections must be at least 1, e.g. 2000.")
        }
    }

    func run() async throws {
        try await reportingErrors {
            let logger = CLILogging.logger(label: "sesame.server", level: logLevel)
            var issuerURL: URL?
            if let issuer {
                guard let url = URL(string: issuer), url.scheme != nil, url.host != nil else {
                    throw CLIError("--issuer '\(issuer)' is not an absolute URL", hint: "Use e.g. https://id.example.com.")
                }
                issuerURL = url
            }
            var seedURL: URL?
            var seed: SeedConfiguration?
            if let seedFile {
                guard FileManager.default.isReadableFile(atPath: seedFile) else {
                    throw CLIError("cannot read the seed file '\(seedFile)'", hint: "Check the --config path.")
                }
                seedURL = URL(fileURLWithPath: seedFile)
                seed = try SeedConfiguration.load(from: URL(fileURLWithPath: seedFile))
            }
            var configuration = ServerConfiguration(
                dataDirectory: DataDirectory(url: dataDir.url), host: host, port: port,
                issuer: issuerURL, seedFile: seedURL)
            configuration.database = try dataDir.storeLocation(configured: seed?.database)
            configuration.passwordHasher = try passwordHashing.hasher()
            configuration.metrics = try metrics.exposure()
            configuration.rateLimits = try rateLimits.policy()
            configuration.challenges = try abuse.policy()
            configuration.auditRetention = try abuse.auditRetention()
            configuration.auditLogEnabled = !abuse.noAuditLog
            configuration.nativeSSO = try nativeSSO.policy()
            configuration.passkeys = try passkeys.policy(issuerHost: issuerURL?.host ?? host)
            configuration.sessionLimits = try sessions.limits()
            try timing.apply(to: &configuration)
            configuration.registration = try registration.policy()
            configuration.requirePushedRequests = requirePushedRequests
            configuration.dpop.requireNonce = requireDPoPNonce
            configuration.smtp = try smtp.configuration()
            configuration.tls = tls.files
            configuration.mutualTLS = tls.mutualTLSSettings
            configuration.purgeInterval = purgeInterval == 0 ? nil : .seconds(purgeInterval)
            configuration.connectionLimits.headerTimeout = headerTimeout
            configuration.connectionLimits.idleTimeout = idleTimeout
            configuration.connectionLimits.bodyTimeout = bodyTimeout
            configuration.connectionLimits.maximumConnections = maxConnections
            configuration.connectionLimits.shutdownTimeout = shutdownTimeout
            do throws(TrustedProxyError) {
                configuration.trustedProxies = try TrustedProxies(parsing: trustedProxies)
            } catch {
                throw CLIError("--trusted-proxy \(error.description)", hint: "Pass one address or network per --trusted-proxy.")
            }
            if tls.mutualTLS, tls.files == nil, trustedProxies.isEmpty {
                throw CLIError(
                    "--mtls has no certificate to read: the server speaks plain HTTP and trusts no proxy",
                    hint: "Add --tls-certificate and --tls-key, or --trusted-proxy for the proxy that forwards Client-Cert (RFC 9440).")
            }
            let signals = ShutdownSignals()
            // Before the start, so the threads the server creates inherit the policy; after it,
            // for any thread that was being created meanwhile.
            let scheduling = threadScheduling ?? .platformDefault
            Self.schedule(scheduling, logger: logger)
            let server = try await IdentityServer.start(configuration, logger: logger)
            Self.schedule(scheduling, logger: logger)
            if passwordHashing.cost < ScryptPasswordHasher.interactive.logN {
                logger.warning(
                    "Password hashing at scrypt cost \(passwordHashing.cost), below the default 15: for tests and development only (--scrypt-cost)")
            }
            Terminal.out("Issuer: \(server.issuer.absoluteString)")
            Terminal.out("Data directory: \(dataDir.url.path)")
            Terminal.out("Database: \(configuration.storeLocation)")
            Terminal.out("Listening: \(host.contains(":") ? "[\(host)]" : host):\(server.port)")
            Terminal.out("Discovery: \(server.issuer.absoluteString)/.well-known/openid-configuration")
            if let mutualTLSPort = server.mutualTLSPort {
                Terminal.out("Mutual TLS: \(host.contains(":") ? "[\(host)]" : host):\(mutualTLSPort) (mtls_endpoint_aliases)")
            }
            if let metricsPort = server.metricsPort {
                Terminal.out("Metrics: http://\(host.contains(":") ? "[\(host)]" : host):\(metricsPort)/metrics")
            } else if configuration.metrics != nil {
                Terminal.out("Metrics: \(server.issuer.absoluteString)/metrics (bearer token)")
            }
            if configuration.registration.mode != .off {
                Terminal.out(
                    "Client registration (RFC 7591): \(server.issuer.absoluteString)/register (\(configuration.registration.mode.rawValue))")
            }
            try await printFirstSteps(server)
            Terminal.out("Press Ctrl-C to stop.")
            // A renewed certificate: `kill -HUP <pid>` serves it to new connections.
            let reloads = configuration.tls.map { _ in
                ReloadSignal {
                    do {
                        try server.reloadTLS()
                        logger.notice("SIGHUP: TLS certificate reloaded; new connections use it")
                    } catch {
                        logger.error("SIGHUP: \(error); the current certificate stays")
                    }
                }
            }
            try await Self.run(server, until: signals, logger: logger)
            withExtendedLifetime(reloads) {}
            LogLineSink.shared.flush()
        }
    }

    private static func schedule(_ scheduling: ThreadScheduling, logger: Logger) {
        do {
            let changed = try scheduling.apply()
            if changed > 0 { logger.debug("Threads now SCHED_BATCH", metadata: ["threads": "\(changed)"]) }
        } catch {
            logger.warning("\(error)")
        }
    }

    /// On an empty store, the exact commands that make the server usable.
    private func printFirstSteps(_ server: RunningServer) async throws {
        let dataDirFlag = dataDir.path == "./.sesame" ? "" : " --data-dir \(dataDir.path)"
        // The admin tools' own clients (the console, `sesame admin`) are the server's, not the operator's.
        let clients = try await server.store.clients().filter { !AdminConsoleClient.isAdminTool($0.clientID) }
        if clients.isEmpty {
            Terminal.out("No clients yet. Create one for the CLI with:")
            // First-party: the CLI is the operator's own app (login --password, profile, signup).
            Terminal.out(
                "  sesame client add sesame-cli --redirect-uri http://127.0.0.1/callback --first-party\(dataDirFlag)")
        }
        // One row at most: a store of a million users starts as fast as an empty one.
        if try await server.store.searchUsers(UserSearch(prefix: "", limit: 1)).users.isEmpty {
            Terminal.out("No users yet. Create one with:")
            Terminal.out("  sesame user add alice --email alice@example.com\(dataDirFlag)")
        }
        if let code = try await server.issueAdminBootstrapCode() {
            // Typed into a form, never part of a URL (it would land in browser history and logs).
            Terminal.out("No administrator yet. Sign in at \(server.issuer.absoluteString)/admin/bootstrap and type this one-time code")
            Terminal.out("(valid one hour, once; a restart prints a new one):")
            Terminal.out("  \(code)")
            Terminal.out("Or grant the role here: sesame user role <username> admin\(dataDirFlag)")
        }
        let clientID = clients.first { !$0.isConfidential }?.clientID ?? "sesame-cli"
        Terminal.out("Sign in from a terminal with:")
        Terminal.out("  sesame login --issuer \(server.issuer.absoluteString) --client-id \(clientID)")
    }

    /// Serves until SIGINT/SIGTERM (then a graceful shutdown) or until the server stops.
    static func run(_ server: RunningServer, until signals: ShutdownSignals, logger: Logger) async throws {
        try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                try await server.wait()
                return nil
            }
            group.addTask { await signals.next() }
            let first = try await group.next() ?? nil
            group.cancelAll()
            if let signal = first {
                logger.info("\(signal) received; shutting down")
                try await server.shutdown()
            }
            try await group.waitForAll()
        }
        logger.info("Stopped")
    }
}
