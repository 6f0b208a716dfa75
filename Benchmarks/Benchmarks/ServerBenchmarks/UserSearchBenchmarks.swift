import Benchmark
import Foundation
import Logging
import SesameProtocol
import SesameServer
import Synchronization

/// The admin API's user search (issue #47) over 1,000,000 users, on SQLite (a file on disk) and,
/// with `SESAME_BENCH_DATABASE_URL`, on PostgreSQL: one page of 25 for a prefix of a username,
/// an email or a name, as the console and `sesame admin users search` ask. The target is a p99
/// under 50 ms. The users are imported once per benchmark process (``SQLIdentityStore/importUsers(_:)``).
enum UserSearchFixture {
    static let userCount = 1_000_000
    static let givenNames = ["ada", "alan", "barbara", "claude", "edsger", "frances", "grace", "john", "ken", "margaret"]
    static let familyNames = ["lovelace", "turing", "liskov", "shannon", "dijkstra", "allen", "hopper", "backus", "thompson", "hamilton"]

    /// The prefixes searched, in turn: a username, an email, a name, a rare one and one that
    /// matches nothing.
    static let prefixes = ["user0042", "user0777123@", "grace hop", "margaret hamilton 99", "zz-nobody"]

    static let store = Mutex<SQLIdentityStore?>(nil)
    static let database = Mutex<String?>(nil)
    static let directory = Mutex<URL?>(nil)

    static func open(_ backend: BenchmarkDatabase) async throws -> SQLIdentityStore {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let store: SQLIdentityStore
        switch backend {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-search-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            directory.withLock { $0 = folder }
            store = try await SQLIdentityStore.openSQLite(at: folder.appendingPathComponent("sesame.sqlite"), logger: logger)
        case .postgres:
            let url = try await BenchmarkDatabase.create()
            database.withLock { $0 = url }
            store = try await SQLIdentityStore.open(.postgres(try DatabaseURL(parsing: url), poolSize: 4), logger: logger)
        }
        let now = Date()
        for start in stride(from: 0, to: userCount, by: 10_000) {
            try await store.importUsers(
                (start..<min(start + 10_000, userCount)).map { index in
                    let number = String(format: "%07d", index)
                    let id = UUID().uuidString.lowercased()
                    var claims = StandardClaims(sub: id)
                    claims.name =
                        "\(givenNames[index % givenNames.count]) \(familyNames[(index / 10) % familyNames.count]) \(index % 100)"
                    return UserRecord(
                        id: id, username: "user\(number)", email: "user\(number)@example.com",
                        emailVerified: true, passwordHash: nil, claims: claims, createdAt: now, updatedAt: now)
                })
        }
        return store
    }

    static func close() async {
        let open = store.withLock { value in
            defer { value = nil }
            return value
        }
        try? await open?.close()
        if let url = database.withLock({ $0 }) { await BenchmarkDatabase.drop(url) }
        if let folder = directory.withLock({ $0 }) { try? FileManager.default.removeItem(at: folder) }
    }
}

func registerUserSearchBenchmarks() {
    for backend in [BenchmarkDatabase.sqlite] + (BenchmarkDatabase.serverURL == nil ? [] : [.postgres]) {
        let name = backend == .sqlite ? "SQLite" : "PostgreSQL"
        Benchmark(
            "Admin: user search, 1,000,000 users, one page of 25 (\(name))",
            configuration: Benchmark.Configuration(
                metrics: [.wallClock, .cpuTotal], warmupIterations: 5, maxDuration: .seconds(20), maxIterations: 2_000,
                thresholds: [.wallClock: .init(absolute: [.p99: 50_000_000])],
                setup: {
                    let store = try await UserSearchFixture.open(backend)
                    UserSearchFixture.store.withLock { $0 = store }
                },
                teardown: { await UserSearchFixture.close() })
        ) { benchmark in
            guard let store = UserSearchFixture.store.withLock({ $0 }) else { throw BenchmarkSetupError("no store") }
            let prefix = UserSearchFixture.prefixes[benchmark.currentIteration % UserSearchFixture.prefixes.count]
            blackHole(try await store.searchUsers(UserSearch(prefix: prefix, cursor: nil, limit: 25)))
        }
    }
}
