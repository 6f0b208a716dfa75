import Benchmark
import Foundation
import SesameProtocol
import SesameServer
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// RFC 8628 §3.4 polling (issue #33): the store statement a device's poll costs when 1,000 or
/// 20,000 other requests are pending. A poll is one `UPDATE … RETURNING` by the device code's
/// digest (the primary key), so its cost should not grow with the pending count; next to it,
/// "Store: indexed SELECT, no row (floor)" is the cheapest statement.
func registerDevicePollBenchmarks() {
    for pending in [1_000, 20_000] {
        let configuration = storeBenchmarkConfiguration { fixture in
            try await fixture.store.upsertClient(
                ClientRecord(clientID: "tv", name: "tv", redirectURIs: [], grantTypes: [.deviceCode]))
            let now = Date()
            var digests: [String] = []
            for _ in 0..<pending {
                let digest = SecretDigest.of(FixtureTokens.token())
                digests.append(digest)
                try await fixture.store.insertDeviceAuthorization(
                    DeviceAuthorizationRecord(
                        deviceCodeDigest: digest, userCodeDigest: SecretDigest.of(FixtureTokens.token()), clientID: "tv",
                        scope: "openid", deviceName: nil, createdAt: now, expiresAt: now.addingTimeInterval(86_400),
                        interval: 0))
            }
            devicePollDigests.withLock { $0 = digests }
        }

        Benchmark("Store: device poll, \(pending) pending (RFC 8628)", configuration: configuration) { benchmark in
            let store = try withStoreFixture().store
            let digests = devicePollDigests.withLock { $0 }
            let now = Date()
            var index = 0
            for _ in benchmark.scaledIterations {
                index = (index &+ 7919) % digests.count
                blackHole(
                    try await store.pollDeviceAuthorization(
                        deviceCodeDigest: digests[index], clientID: "tv", now: now, tolerance: 0, slowDownIncrement: 5))
            }
        }
    }
}

/// The device codes of the running poll benchmark.
let devicePollDigests = Mutex<[String]>([])

/// What the poll benchmark's load gets: checked once before it runs, since wrk counts every 400
/// alike.
enum DevicePollCheck {
    /// One poll of the first device code answers `authorization_pending` (or `slow_down`).
    static func expectPending(server: ServerProcess, codes: URL) async throws {
        let first = try String(contentsOf: codes, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
        let (status, body) = try await TokenEndpointProbe.post(
            "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&client_id=\(ServerProcess.deviceClientID)&device_code=\(first)",
            to: server)
        guard status == 400, body.contains("authorization_pending") || body.contains("slow_down")
        else { throw BenchmarkSetupError("a poll answered \(body)") }
    }
}
