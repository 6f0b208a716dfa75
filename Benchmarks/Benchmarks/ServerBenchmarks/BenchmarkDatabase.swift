import Foundation

/// Where the server benchmarks keep their data: the embedded SQLite file (always), or a fresh
/// PostgreSQL database per benchmark on the server `SESAME_BENCH_DATABASE_URL` names (its
/// database is the maintenance database the fresh one is created from and dropped through,
/// with `psql`). `Tests/PostgreSQL/cluster.sh start` gives such a server.
enum BenchmarkDatabase: Sendable, Equatable {
    case sqlite
    case postgres

    /// The PostgreSQL server of this run, if any.
    static let serverURL: String? = ProcessInfo.processInfo.environment["SESAME_BENCH_DATABASE_URL"]
        .flatMap { $0.isEmpty ? nil : $0 }

    /// A new database on ``serverURL``; returns its URL.
    static func create() async throws -> String {
        guard let base = serverURL, let components = URLComponents(string: base) else {
            throw BenchmarkSetupError("set SESAME_BENCH_DATABASE_URL to a PostgreSQL URL (Tests/PostgreSQL/cluster.sh start)")
        }
        let name = "sesame_bench_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await psql(base, "CREATE DATABASE \(name)")
        var created = components
        created.path = "/" + name
        guard let url = created.string else { throw BenchmarkSetupError("cannot build a URL from \(base)") }
        return url
    }

    /// Drops a database ``create()`` made.
    static func drop(_ url: String) async {
        guard let base = serverURL, let name = URLComponents(string: url)?.path.dropFirst() else { return }
        try? await psql(base, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs one statement with `psql`, awaiting its exit without blocking a thread.
    static func psql(_ url: String, _ statement: String) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [url, "-q", "-v", "ON_ERROR_STOP=1", "-c", statement]
        process.environment = ChildEnvironment.withoutBenchmarkHooks()
        let once = ResumeOnce()
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { ended in once.run { continuation.resume(returning: ended.terminationStatus) } }
            do { try process.run() } catch { once.run { continuation.resume(throwing: error) } }
        }
        guard status == 0 else {
            throw BenchmarkSetupError("psql failed (\(status)): \(statement)")
        }
    }
}
