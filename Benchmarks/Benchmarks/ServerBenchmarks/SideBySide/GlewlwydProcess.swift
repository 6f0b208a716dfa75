import Crypto
import Foundation
import SesameProtocol
import _CryptoExtras

/// glewlwyd 2.7.5 from Debian's package (`apt-get install glewlwyd sqlite3`), the peer of the
/// side-by-side benchmarks, in its best configuration for this load:
/// - SQLite from the package's own schema, in WAL mode, with an index on every foreign key
///   and on the user and client names (the schema has none there, so each token request scans);
/// - the OpenID Connect plugin signing with a 2048-bit RSA key (RS256), refresh tokens rotated
///   on every use (`refresh-token-one-use: always`), PKCE allowed;
/// - a public client `bench` (code and refresh_token), a confidential client `bench-cc`
///   (client_credentials, `client_secret_basic`), and a user `bench` with the `openid` scope.
///
/// The data is made as a user's would be: sign-ins through glewlwyd's own API (`/api/auth/`,
/// then `/api/oidc/auth` with the session, then the code exchange), so every refresh token,
/// access token and session cookie is one glewlwyd issued.
final class GlewlwydProcess: Sendable {
    static let clientID = "bench"
    static let confidentialClientID = "bench-cc"
    static let confidentialSecret = "bench-cc-secret"
    static let redirectURI = "http://127.0.0.1/callback"
    static let sessionCookieName = "GLEWLWYD2_SESSION_ID"
    static let tokenPath = "/api/oidc/token"
    static let authorizePath = "/api/oidc/auth"
    static let userinfoPath = "/api/oidc/userinfo"
    static let discoveryPath = "/api/oidc/.well-known/openid-configuration"
    private static let schema = "/usr/share/dbconfig-common/data/glewlwyd/install/sqlite3"

    /// What a run against glewlwyd needs, all issued by it.
    struct Material: Sendable {
        /// One file of refresh tokens per batch (one batch per iteration).
        var refreshTokenFiles: [URL]
        /// Session cookie values of signed-in browsers, one per line.
        var sessionCookies: URL
        /// An access token of the user, for the UserInfo endpoint.
        var accessToken: String
    }

    let base: String
    let directory: URL
    private let process: Process

    private init(base: String, directory: URL, process: Process) {
        self.base = base
        self.directory = directory
        self.process = process
    }

    var cpuSeconds: Double { ProcessCPU.seconds(pid: process.processIdentifier) }

    /// glewlwyd's process id.
    var pid: Int32 { process.processIdentifier }

    /// Makes the database, starts glewlwyd on a free port, configures it through its admin API
    /// and signs in: `browserSessions` sessions, `refreshBatches` files of `tokensPerBatch`
    /// refresh tokens.
    static func start(refreshBatches: Int, tokensPerBatch: Int, browserSessions: Int, pkce: PKCE) async throws
        -> (GlewlwydProcess, Material)
    {
        let executable = try Executables.find("glewlwyd", package: "glewlwyd")
        let sqlite = try Executables.find("sqlite3", package: "sqlite3")
        guard FileManager.default.fileExists(atPath: schema) else {
            throw BenchmarkSetupError("\(schema) is missing: `apt-get install glewlwyd` installs it")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glewlwyd-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = directory.appendingPathComponent("glewlwyd.db")
        try await createDatabase(at: database, sqlite: sqlite)

        let port = try FreePort.pick()
        let base = "http://127.0.0.1:\(port)"
        let config = directory.appendingPathComponent("glewlwyd.conf")
        try Data(configuration(port: port, base: base, database: database, log: directory).utf8).write(to: config)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["-c", config.path]
        process.environment = ChildEnvironment.withoutBenchmarkHooks()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.standardError
        try process.run()
        let server = GlewlwydProcess(base: base, directory: directory, process: process)
        do {
            let http = PeerHTTP(base: base)
            try await waitUntilListening(http)
            try await configure(http)
            let material = try await signIn(
                http, directory: directory, refreshBatches: refreshBatches, tokensPerBatch: tokensPerBatch,
                browserSessions: browserSessions, pkce: pkce)
            return (server, material)
        } catch {
            await server.stop()
            throw error
        }
    }

    /// The package's schema, WAL, and the indexes it lacks.
    private static func createDatabase(at database: URL, sqlite: URL) async throws {
        let schemaText = try String(contentsOfFile: schema, encoding: .utf8)
        var script = schemaText + "\nPRAGMA journal_mode = WAL;\n"
        var table = ""
        for line in schemaText.split(separator: "\n") {
            if line.hasPrefix("CREATE TABLE ") {
                table = String(line.dropFirst("CREATE TABLE ".count).prefix { $0 != " " && $0 != "(" })
            } else if let range = line.range(of: "FOREIGN KEY(") {
                let column = line[range.upperBound...].prefix { $0 != ")" }
                script += "CREATE INDEX IF NOT EXISTS bench_\(table)_\(column) ON \(table)(\(column));\n"
            }
        }
        script += "CREATE INDEX IF NOT EXISTS bench_g_user_username ON g_user(gu_username);\n"
        script += "CREATE INDEX IF NOT EXISTS bench_g_client_client_id ON g_client(gc_client_id);\n"
        let scriptFile = database.deletingLastPathComponent().appendingPathComponent("schema.sql")
        try Data(script.utf8).write(to: scriptFile)
        try await ChildRun.run(sqlite, [database.path, ".read \(scriptFile.path)"])
    }

    private static func configuration(port: Int, base: String, database: URL, log: URL) -> String {
        """
        port=\(port)
        external_url="\(base)"
        login_url="login.html"
        api_prefix="api"
        allow_origin="*"
        log_mode="file"
        log_level="\(ProcessInfo.processInfo.environment["SESAME_BENCH_LOG_LEVEL"] == nil ? "INFO" : "ERROR")"
        log_file="\(log.appendingPathComponent("glewlwyd.log").path)"
        cookie_secure=0
        session_expiration=2419200
        session_key="\(sessionCookieName)"
        admin_session_authentication="cookie"
        profile_session_authentication="cookie"
        allow_multiple_user_per_session=true
        login_api_enabled=true
        admin_scope="g_admin"
        profile_scope="g_profile"
        user_module_path="/usr/lib/glewlwyd/user"
        client_module_path="/usr/lib/glewlwyd/client"
        user_auth_scheme_module_path="/usr/lib/glewlwyd/scheme"
        plugin_module_path="/usr/lib/glewlwyd/plugin"
        hash_algorithm="SHA256"
        database = { type = "sqlite3"; path = "\(database.path)"; };

        """
    }

    private static func waitUntilListening(_ http: PeerHTTP) async throws {
        for _ in 0..<100 {
            if let answer = try? await http.get("/api/"), answer.status < 500 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw BenchmarkSetupError("glewlwyd did not answer on \(http.base) within 10 s")
    }

    /// The OIDC plugin, the scopes, the user and the clients, through the admin API (the
    /// package's admin account is `admin` / `password`).
    private static func configure(_ http: PeerHTTP) async throws {
        let admin = try await http.json("POST", "/api/auth/", ["username": "admin", "password": "password"])
            .cookie(sessionCookieName)
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let parameters: [String: Any] = [
            "iss": http.base, "jwt-type": "rsa", "jwt-key-size": "256",
            "key": key.pemRepresentation, "cert": key.publicKey.pemRepresentation,
            "code-duration": 600, "refresh-token-duration": 1_209_600, "refresh-token-one-use": "always",
            "access-token-duration": 3600, "allow-non-oidc": true, "pkce-allowed": true,
            "auth-type-code-enabled": true, "auth-type-client-enabled": true, "auth-type-refresh-enabled": true,
            "auth-type-token-enabled": false, "auth-type-password-enabled": false, "auth-type-device-enabled": false,
        ]
        try await http.json(
            "POST", "/api/mod/plugin/",
            ["module": "oidc", "name": "oidc", "display_name": "OpenID Connect", "enabled": true, "parameters": parameters],
            cookie: admin)
        // A session with the password is enough for `openid` (the package asks for nothing).
        try await http.json(
            "PUT", "/api/scope/openid",
            [
                "name": "openid", "display_name": "Open ID", "description": "Open ID Connect scope",
                "password_required": true, "password_max_age": 0, "scheme": [String: Any](),
            ], cookie: admin)
        try await http.json(
            "POST", "/api/scope/",
            [
                "name": "api", "display_name": "API", "description": "The benchmark's API",
                "password_required": false, "password_max_age": 0, "scheme": [String: Any](),
            ], cookie: admin)
        try await http.json(
            "POST", "/api/user/",
            ["username": "bench", "password": "correct horse battery", "name": "Bench", "scope": ["openid"], "enabled": true],
            cookie: admin)
        try await http.json(
            "POST", "/api/client/",
            [
                "client_id": clientID, "client_name": clientID, "confidential": false, "redirect_uri": [redirectURI],
                "authorization_type": ["code", "refresh_token"], "scope": ["openid"], "enabled": true,
            ], cookie: admin)
        try await http.json(
            "POST", "/api/client/",
            [
                "client_id": confidentialClientID, "client_name": confidentialClientID, "confidential": true,
                "password": confidentialSecret, "token_endpoint_auth_method": ["client_secret_basic"],
                "redirect_uri": [String](), "authorization_type": ["client_credentials"], "scope": ["api"], "enabled": true,
            ], cookie: admin)
    }

    /// Sessions of the user and refresh tokens from sign-ins through glewlwyd's own endpoints.
    private static func signIn(
        _ http: PeerHTTP, directory: URL, refreshBatches: Int, tokensPerBatch: Int, browserSessions: Int, pkce: PKCE
    ) async throws -> Material {
        var sessions: [String] = []
        for _ in 0..<max(browserSessions, 1) {
            let cookie = try await http.json(
                "POST", "/api/auth/", ["username": "bench", "password": "correct horse battery"]
            ).cookie(sessionCookieName)
            sessions.append(cookie)
        }
        try await http.json("PUT", "/api/auth/grant/\(clientID)", ["scope": "openid"], cookie: sessions[0])
        var accessToken = ""
        var files: [URL] = []
        for batch in 0..<refreshBatches {
            var tokens: [String] = []
            for _ in 0..<tokensPerBatch {
                let issued = try await codeExchange(http, session: sessions[0], pkce: pkce)
                tokens.append(issued.refresh)
                accessToken = issued.access
            }
            let file = directory.appendingPathComponent("refresh-\(batch).txt")
            try Data((tokens.joined(separator: "\n") + "\n").utf8).write(to: file)
            files.append(file)
        }
        if accessToken.isEmpty { accessToken = try await codeExchange(http, session: sessions[0], pkce: pkce).access }
        let cookies = directory.appendingPathComponent("session-cookies.txt")
        let values = sessions.map { String($0.dropFirst(sessionCookieName.count + 1)) }
        try Data((values.joined(separator: "\n") + "\n").utf8).write(to: cookies)
        return Material(refreshTokenFiles: files, sessionCookies: cookies, accessToken: accessToken)
    }

    /// One sign-in of a signed-in browser: the authorization request with `g_continue` (the
    /// login page's mark that the session suffices), then the code exchanged with PKCE.
    private static func codeExchange(_ http: PeerHTTP, session: String, pkce: PKCE) async throws
        -> (refresh: String, access: String)
    {
        let query =
            "response_type=code&client_id=\(clientID)&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback&scope=openid"
            + "&state=s&nonce=n&code_challenge=\(pkce.challenge)&code_challenge_method=S256&g_continue"
        let answer = try await http.get("\(authorizePath)?\(query)", cookie: session)
        guard let location = answer.header("Location"),
            let code = URLComponents(string: location)?.queryItems?.first(where: { $0.name == "code" })?.value
        else { throw BenchmarkSetupError("glewlwyd gave no code: \(answer.status) \(answer.header("Location") ?? "")") }
        let json = try await http.form(
            tokenPath,
            [
                "grant_type": "authorization_code", "client_id": clientID, "redirect_uri": redirectURI, "code": code,
                "code_verifier": pkce.verifier,
            ]
        ).json("code exchange")
        guard let refresh = json["refresh_token"] as? String, let access = json["access_token"] as? String else {
            throw BenchmarkSetupError("glewlwyd's code exchange gave no refresh token: \(json.keys.sorted())")
        }
        return (refresh, access)
    }

    func stop() async {
        let once = ResumeOnce()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in once.run { continuation.resume() } }
            if process.isRunning { process.terminate() } else { once.run { continuation.resume() } }
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
