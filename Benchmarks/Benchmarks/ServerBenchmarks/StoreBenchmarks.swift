import Benchmark
import Foundation
import Logging
import SesameProtocol
import SesameServer
import Synchronization

/// The store statements of the refresh grant, one at a time on an on-disk SQLite file: what
/// each costs in wall-clock time, next to the floor of one trivial statement (`SELECT 1`:
/// the thread-pool round trip and statement preparation).
final class StoreFixture: Sendable {
    let store: SQLIdentityStore
    let directory: URL
    let userID = UUID().uuidString

    static func open() async throws -> StoreFixture {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sesame-store-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let store = try await SQLIdentityStore.openSQLite(
            at: directory.appendingPathComponent("sesame.sqlite"), logger: logger, clientCacheLifetime: .zero)
        try await store.upsertClient(
            ClientRecord(clientID: "bench", name: "bench", redirectURIs: ["http://127.0.0.1/callback"]))
        return StoreFixture(store: store, directory: directory)
    }

    private init(store: SQLIdentityStore, directory: URL) {
        self.store = store
        self.directory = directory
    }

    func newToken() -> (token: String, record: RefreshTokenRecord) {
        let token = FixtureTokens.token()
        let now = Date()
        return (token, RefreshTokenRecord(
            tokenDigest: SecretDigest.of(token), familyID: UUID().uuidString, clientID: "bench",
            scope: "openid profile offline_access",
            authentication: AuthenticationContext(userID: userID, authTime: now),
            sessionID: nil, issuedAt: now, expiresAt: now.addingTimeInterval(86_400)))
    }

    func close() async {
        try? await store.close()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// The fixture of the running store benchmark (each benchmark runs in a process of its own).
let storeFixture = Mutex<StoreFixture?>(nil)

func withStoreFixture() throws -> StoreFixture {
    guard let fixture = storeFixture.withLock({ $0 }) else { throw BenchmarkSetupError("no store") }
    return fixture
}

/// The configuration of a store benchmark: a fresh ``StoreFixture`` (with what `prepare` adds)
/// before the runs, closed after them.
func storeBenchmarkConfiguration(
    prepare: @escaping @Sendable (StoreFixture) async throws -> Void = { _ in }
) -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal], warmupIterations: 1, scalingFactor: .kilo,
        maxDuration: .seconds(10), maxIterations: 10,
        setup: {
            let fixture = try await StoreFixture.open()
            try await prepare(fixture)
            storeFixture.withLock { $0 = fixture }
        },
        teardown: {
            let fixture = storeFixture.withLock { fixture in
                defer { fixture = nil }
                return fixture
            }
            await fixture?.close()
        })
}

func registerStoreBenchmarks() {
    let configuration = storeBenchmarkConfiguration()

    Benchmark("Store: indexed SELECT, no row (floor)", configuration: configuration) { benchmark in
        let store = try withStoreFixture().store
        for _ in benchmark.scaledIterations {
            blackHole(try await store.isRefreshFamilyRevoked("none"))
        }
    }

    Benchmark("Store: client(id:) uncached", configuration: configuration) { benchmark in
        let store = try withStoreFixture().store
        for _ in benchmark.scaledIterations {
            blackHole(try await store.client(id: "bench"))
        }
    }

    Benchmark("Store: insertRefreshToken", configuration: configuration) { benchmark in
        let fixture = try withStoreFixture()
        let records = benchmark.scaledIterations.map { _ in fixture.newToken().record }
        benchmark.startMeasurement()
        for record in records {
            try await fixture.store.insertRefreshToken(record)
        }
        benchmark.stopMeasurement()
    }

    Benchmark("Store: rotateRefreshToken", configuration: configuration) { benchmark in
        let fixture = try withStoreFixture()
        var digests: [String] = []
        for _ in benchmark.scaledIterations {
            let (token, record) = fixture.newToken()
            try await fixture.store.insertRefreshToken(record)
            digests.append(SecretDigest.of(token))
        }
        let now = Date()
        let successors = digests.map { _ in
            RefreshTokenSuccessor(
                tokenDigest: SecretDigest.of(FixtureTokens.token()), issuedAt: now,
                expiresAt: now.addingTimeInterval(86_400))
        }
        benchmark.startMeasurement()
        for (digest, successor) in zip(digests, successors) {
            blackHole(try await fixture.store.rotateRefreshToken(digest: digest, into: successor))
        }
        benchmark.stopMeasurement()
    }
}
