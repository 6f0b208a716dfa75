import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Drives `total` requests over `connections` concurrent HTTP/1.1 connections and records each
/// request's latency. One worker per connection, each sending its share back to back.
struct LoadDriver: Sendable {
    let client: HTTPClient
    let connections: Int

    struct Result: Sendable {
        var latencies: [Duration]
        var elapsed: Duration
        var failures: Int

        var requestsPerSecond: Double {
            Double(latencies.count) / elapsed.seconds
        }

        func percentile(_ p: Double) -> Duration {
            let sorted = latencies.sorted()
            guard !sorted.isEmpty else { return .zero }
            let index = min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)
            return sorted[max(0, index)]
        }
    }

    /// `makeRequest(worker)` builds the next request of a worker; `onResponse` sees its body.
    func run(
        total: Int,
        makeRequest: @escaping @Sendable (Int) async -> HTTPClientRequest,
        onResponse: @escaping @Sendable (Int, HTTPResponseStatus, ByteBuffer) async -> Void = { _, _, _ in }
    ) async -> Result {
        let clock = ContinuousClock()
        let start = clock.now
        let perWorker = total / connections
        let results = await withTaskGroup(of: ([Duration], Int).self) { group in
            for worker in 0..<connections {
                group.addTask {
                    var latencies: [Duration] = []
                    latencies.reserveCapacity(perWorker)
                    var failures = 0
                    for _ in 0..<perWorker {
                        let request = await makeRequest(worker)
                        let began = clock.now
                        do {
                            let response = try await client.execute(request, timeout: .seconds(30))
                            let body = try await response.body.collect(upTo: 1 << 20)
                            latencies.append(clock.now - began)
                            if response.status != .ok { failures += 1 }
                            await onResponse(worker, response.status, body)
                        } catch {
                            failures += 1
                        }
                    }
                    return (latencies, failures)
                }
            }
            var all: [Duration] = []
            var failures = 0
            for await (latencies, failed) in group {
                all += latencies
                failures += failed
            }
            return (all, failures)
        }
        return Result(latencies: results.0, elapsed: clock.now - start, failures: results.1)
    }
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    var microseconds: Int { Int(seconds * 1e6) }
}
