import Foundation
import Logging
import SesameProtocol
import SesameServer
import Synchronization

/// The real `sesame serve` (release build), in its own process on 127.0.0.1 with a data
/// directory on disk, as it runs in production. The benchmark process only prepares the data
/// directory (clients, a user, refresh-token families) before the server starts.
///
/// Why a separate process: the benchmark runner blocks one thread of Swift's cooperative pool
/// while an async benchmark runs, so an in-process server gets one core for its tasks; and
/// the load generator (`wrk`) must not share the server's threads either.
final class ServerProcess: Sendable {
    static let refreshClientID = "bench"
    static let confidentialClientID = "bench-cc"
    /// A first-party public client: the native password sign-in (`/authorize-challenge`).
    static let firstPartyClientID = "bench-app"
    /// The fixture user's name and password (on the grown store too: the generator copies it).
    static let username = "bench"
    static let password = "correct horse battery"
    /// A public client of the device grant (RFC 8628), whose pending requests the poll benchmark polls.
    static let deviceClientID = "bench-tv"

    let issuer: String
    let clientSecret: String
    let dataDirectory: URL
    /// The PostgreSQL database of this run (shared by its processes), dropped by ``stop()``.
    let databaseURL: String?
    private let process: Process

    /// Prepares a fresh data directory (and for PostgreSQL a fresh database) and starts
    /// `processes` servers on free ports, sharing the data directory's master key and the
    /// database. `refreshBatches` batches of refresh tokens are minted, each split into one file
    /// per process (`familiesPerBatch` tokens per file), so no two load generators share a family.
    /// `processArguments[i]`, when given, is added to process `i`'s arguments (a log level of
    /// its own, say).
    /// `pendingDevices` pending device authorization requests are stored, their device codes
    /// written to `deviceCodes` (one per line); `browserSessions` signed-in browser sessions of
    /// the user, their cookie values written to `sessionCookies`. `populate`, when given, adds
    /// to the store after all that and before the servers start (``GrowthGenerator``).
    static func start(
        refreshBatches: Int = 0, familiesPerBatch: Int = 0, database: BenchmarkDatabase = .sqlite,
        processes: Int = 1, extraArguments: [String] = [], processArguments: [[String]] = [],
        accessTokenAlgorithm: String = "RS256",
        dpopJKT: String? = nil, pendingDevices: Int = 0, browserSessions: Int = 0,
        populate: (@Sendable (_ directory: URL, _ databaseURL: String?) async throws -> Void)? = nil
    ) async throws -> (servers: [ServerProcess], tokenFiles: [[URL]], deviceCodes: URL?, sessionCookies: URL?) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sesame-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let databaseURL = database == .postgres ? try await BenchmarkDatabase.create() : nil
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let location = try databaseURL.map { StoreLocation.postgres(try DatabaseURL(parsing: $0), poolSize: 4) }
        let admin = try await ServerAdmin.open(
            dataDirectory: DataDirectory(url: directory.appendingPathComponent("data")), database: location,
            logger: logger)
        let secret: String
        var tokenFiles: [[URL]] = []
        var deviceCodes: URL?
        var sessionCookies: URL?
        do {
            _ = try await admin.addClient(
                ClientSpec(
                    clientID: refreshClientID, redirectURIs: ["http://127.0.0.1/callback"],
                    accessTokenSigningAlg: accessTokenAlgorithm))
            let (_, confidentialSecret) = try await admin.addClient(
                ClientSpec(clientID: confidentialClientID, confidential: true, grantTypes: [.clientCredentials], scopes: ["api"]))
            secret = confidentialSecret ?? ""
            _ = try await admin.addClient(
                ClientSpec(clientID: firstPartyClientID, redirectURIs: ["http://127.0.0.1/app"], firstParty: true))
            let user = try await admin.addUser(username: username, email: "bench@example.com", password: password)
            for batch in 0..<refreshBatches {
                var files: [URL] = []
                for process in 0..<processes {
                    var tokens: [String] = []
                    for _ in 0..<familiesPerBatch {
                        tokens.append(try await mintRefreshFamily(store: admin.store, userID: user.id, dpopJKT: dpopJKT))
                    }
                    let file = directory.appendingPathComponent("refresh-\(batch)-\(process).txt")
                    try Data((tokens.joined(separator: "\n") + "\n").utf8).write(to: file)
                    files.append(file)
                }
                tokenFiles.append(files)
            }
            if pendingDevices > 0 {
                deviceCodes = try await storePendingDevices(pendingDevices, admin: admin, directory: directory)
            }
            if browserSessions > 0 {
                sessionCookies = try await storeBrowserSessions(
                    browserSessions, userID: user.id, admin: admin, directory: directory)
            }
            try await admin.close()
            try await populate?(directory, databaseURL)
        } catch {
            try? await admin.close()
            if let databaseURL { await BenchmarkDatabase.drop(databaseURL) }
            throw error
        }
        var servers: [ServerProcess] = []
        for index in 0..<processes {
            servers.append(
                try launch(
                    dataDirectory: directory, databaseURL: databaseURL, clientSecret: secret, index: index,
                    extraArguments: extraArguments + (index < processArguments.count ? processArguments[index] : [])))
        }
        return (servers, tokenFiles, deviceCodes, sessionCookies)
    }

    /// `count` browser sessions of `userID` signed in with a password a minute ago, as a
    /// browser holds them after the hosted login; the file of their cookie values.
    private static func storeBrowserSessions(
        _ count: Int, userID: String, admin: ServerAdmin, directory: URL
    ) async throws -> URL {
        let now = Date()
        var cookies: [String] = []
        for _ in 0..<count {
            let id = FixtureTokens.token()
            cookies.append(id)
            try await admin.store.insertBrowserSession(
                BrowserSessionRecord(
                    idDigest: SecretDigest.of(id), sid: FixtureTokens.token(byteCount: 16),
                    authentication: AuthenticationContext(
                        userID: userID, authTime: now.addingTimeInterval(-60), acr: AuthenticationContextClass.password, amr: ["pwd"]),
                    createdAt: now, expiresAt: now.addingTimeInterval(86_400)))
        }
        let file = directory.appendingPathComponent("session-cookies.txt")
        try Data((cookies.joined(separator: "\n") + "\n").utf8).write(to: file)
        return file
    }

    /// `count` pending device requests of ``deviceClientID`` (interval 1 s, a day to live), as
    /// TVs waiting for their users hold them; the file of their device codes.
    private static func storePendingDevices(_ count: Int, admin: ServerAdmin, directory: URL) async throws -> URL {
        _ = try await admin.addClient(
            ClientSpec(clientID: deviceClientID, grantTypes: [.deviceCode], scopes: ["openid"]))
        let now = Date()
        var codes: [String] = []
        for _ in 0..<count {
            let code = FixtureTokens.token()
            codes.append(code)
            try await admin.store.insertDeviceAuthorization(
                DeviceAuthorizationRecord(
                    deviceCodeDigest: SecretDigest.of(code), userCodeDigest: SecretDigest.of(FixtureTokens.token()),
                    clientID: deviceClientID, scope: "openid", deviceName: nil, createdAt: now,
                    expiresAt: now.addingTimeInterval(86_400), interval: 1))
        }
        let file = directory.appendingPathComponent("device-codes.txt")
        try Data((codes.joined(separator: "\n") + "\n").utf8).write(to: file)
        return file
    }

    /// One refresh-token family, as a signed-in app holds it (the sign-in that would create it
    /// is not what is measured).
    /// With `dpopJKT` the family is bound to that DPoP key, as a public client's is after a
    /// sign-in with a proof (RFC 9449 §5).
    private static func mintRefreshFamily(store: any IdentityStore, userID: String, dpopJKT: String? = nil) async throws
        -> String
    {
        let token = FixtureTokens.token()
        let now = Date()
        try await store.insertRefreshToken(
            RefreshTokenRecord(
                tokenDigest: SecretDigest.of(token), familyID: UUID().uuidString, clientID: refreshClientID,
                scope: "openid profile offline_access",
                authentication: AuthenticationContext(userID: userID, authTime: now),
                sessionID: nil, issuedAt: now, expiresAt: now.addingTimeInterval(86_400), dpopJKT: dpopJKT))
        return token
    }

    private static func launch(
        dataDirectory: URL, databaseURL: String?, clientSecret: String, index: Int, extraArguments: [String]
    ) throws -> ServerProcess {
        let executable = try sesameExecutable()
        let process = Process()
        process.executableURL = executable
        var environment = ChildEnvironment.withoutBenchmarkHooks()
        environment["SESAME_DATABASE_URL"] = databaseURL ?? ""
        process.environment = environment
        // Issue #50: the configuration users run, the default log level (`info`, a line per
        // request), written to a file as a deployment's log is; `SESAME_BENCH_LOG_LEVEL` sets
        // another level to measure what the log costs, unless the process has a level of its own.
        let level =
            extraArguments.contains("--log-level")
            ? [] : ProcessInfo.processInfo.environment["SESAME_BENCH_LOG_LEVEL"].map { ["--log-level", $0] } ?? []
        process.arguments = [
            "serve", "--port", "0", "--data-dir", dataDirectory.appendingPathComponent("data").path,
        ] + level + extraArguments
        let stdout = Pipe()
        process.standardOutput = stdout
        // One log file per process: two processes writing one file from offset 0 overwrite each other.
        let logFile = dataDirectory.appendingPathComponent(index == 0 ? "sesame.log" : "sesame-\(index).log")
        FileManager.default.createFile(atPath: logFile.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: logFile)
        try process.run()
        // The first stdout line is `Issuer: <url>` once the server listens.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            guard let chunk = try stdout.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty else {
                process.terminate()
                throw BenchmarkSetupError("sesame serve exited before printing its issuer")
            }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("Issuer: ") else {
            process.terminate()
            throw BenchmarkSetupError("unexpected first line from sesame serve: \(text)")
        }
        return ServerProcess(
            issuer: String(text.dropFirst("Issuer: ".count)), clientSecret: clientSecret,
            dataDirectory: dataDirectory, databaseURL: databaseURL, process: process)
    }

    /// The release `sesame` binary next to this benchmark executable (same build directory), or
    /// the one `SESAME_BENCH_SESAME` names: an earlier build kept aside, to measure two builds
    /// alternately in one hour.
    private static func sesameExecutable() throws -> URL {
        if let other = ProcessInfo.processInfo.environment["SESAME_BENCH_SESAME"], !other.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: other) else {
                throw BenchmarkSetupError("SESAME_BENCH_SESAME names \(other), which is not an executable")
            }
            return URL(fileURLWithPath: other)
        }
        let here = (Bundle.main.executableURL ?? URL(fileURLWithPath: "/proc/self/exe")).resolvingSymlinksInPath()
        let candidate = here.deletingLastPathComponent().appendingPathComponent("sesame")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw BenchmarkSetupError(
                "\(candidate.path) is missing: run `swift build -c release --product sesame` in Benchmarks/ first")
        }
        return candidate
    }

    private init(issuer: String, clientSecret: String, dataDirectory: URL, databaseURL: String?, process: Process) {
        self.issuer = issuer
        self.clientSecret = clientSecret
        self.dataDirectory = dataDirectory
        self.databaseURL = databaseURL
        self.process = process
    }

    /// The server's process id.
    var pid: Int32 { process.processIdentifier }

    /// The server's CPU time so far (user + system), from /proc.
    var cpuSeconds: Double {
        ProcessCPU.seconds(pid: process.processIdentifier)
    }

    /// SIGTERM (the server shuts down cleanly), then waits for the exit without blocking a thread.
    func stop() async {
        let once = ResumeOnce()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in once.run { continuation.resume() } }
            if process.isRunning { process.terminate() } else { once.run { continuation.resume() } }
        }
    }

    /// Stops every server of one run, then deletes their data directory and database.
    static func stop(_ servers: [ServerProcess]) async {
        for server in servers { await server.stop() }
        guard let first = servers.first else { return }
        try? FileManager.default.removeItem(at: first.dataDirectory)
        if let databaseURL = first.databaseURL { await BenchmarkDatabase.drop(databaseURL) }
    }
}

/// Runs its body the first time only (the termination handler and the caller may race).
final class ResumeOnce: Sendable {
    private let done = Mutex(false)
    func run(_ body: () -> Void) {
        if done.withLock({ let first = !$0; $0 = true; return first }) { body() }
    }
}

struct BenchmarkSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// CPU time of a process from `/proc/<pid>/stat` (fields 14 and 15, in clock ticks).
enum ProcessCPU {
    static func seconds(pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command name: field 3 is index 0, so utime (14) is index 11, stime (15) 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The CPU time (user + system) of this process's children that have exited and been
    /// waited for (`getrusage(RUSAGE_CHILDREN)`): around a `wrk` run, the load generator's.
    static func reapedChildrenSeconds() -> Double {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// The environment for the processes the benchmark starts. The benchmark runner preloads its
/// malloc-counting interposer (`LD_PRELOAD`); the server and wrk run without it, as in
/// production.
enum ChildEnvironment {
    static func withoutBenchmarkHooks() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "LD_PRELOAD")
        return environment
    }
}
