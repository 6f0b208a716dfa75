import Benchmark
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue #50: what the HTTP path costs a `POST /token` on its own. The request names no client,
/// so the token endpoint refuses it (`invalid_client`, 401, RFC 6749 §5.2) before any store
/// access: the row is the floor a request pays to cross the event loop, NIO's async channel,
/// Hummingbird's router and middleware, the cooperative pool, the request log and an error body.
/// Read it beside "Discovery document" (answered on the event loop itself) and the refresh rows
/// (the same path plus the rotation and two signatures, without the error body).
func registerRefusalBenchmarks() {
    Benchmark(
        "Token endpoint: refused before the store, no client named (32 connections)",
        configuration: loadConfiguration()
    ) { benchmark in
        try await RefusalCheck.expectInvalidClient(server: try Fixture.shared.servers[0])
        try await measureLoad(benchmark, refusals: true) { _, _ in (WrkScripts.refusedWithoutClient, [:]) }
    }
}

enum RefusalCheck {
    /// The request's body, also what `WrkScripts.refusedWithoutClient` sends.
    static let body = "grant_type=refresh_token&refresh_token=unknown"

    /// One such request answers 401 `invalid_client`: the row measures a refusal, not a grant.
    static func expectInvalidClient(server: ServerProcess) async throws {
        let (status, text) = try await TokenEndpointProbe.post(body, to: server)
        guard status == 401, text.contains("\"invalid_client\"") else {
            throw BenchmarkSetupError("a request without a client answered \(text)")
        }
    }
}

/// One form POST to a server's token endpoint before a load, to check what the load's requests
/// are answered with.
enum TokenEndpointProbe {
    static func post(_ form: String, to server: ServerProcess) async throws -> (status: Int, text: String) {
        var request = URLRequest(url: URL(string: server.issuer + "/token")!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(form.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}
