import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// `/metrics` in the Prometheus text format: off by default, behind a bearer token on the main
/// port or alone on a port of its own, and counting what an operator watches: requests by route
/// and status with latencies, tokens by grant, sign-in outcomes, refresh-token reuse, and the
/// store's statements and pool.
@Suite("Prometheus metrics")
struct MetricsTests {
    static let token = "metrics-token-" + String(repeating: "m", count: 24)

    @Test("off by default: /metrics is 404 and nothing is collected")
    func offByDefault() async throws {
        try await withTestServer { server in
            let scrape = try await server.client().get("/metrics")
            #expect(scrape.status == 404)
        }
    }

    @Test("bearer token: refused without it or with another one; with it, the counters of what happened", arguments: StoreBackend.available)
    func bearerToken(_ backend: StoreBackend) async throws {
        // No background statements (key-table poll, purge, rate-limit sharing), so nothing is in
        // flight at the scrape.
        let configure: @Sendable (inout ServerConfiguration) -> Void = {
            $0.metrics = .bearerToken(Self.token)
            $0.keyChangeInterval = nil
            $0.purgeInterval = nil
            $0.rateLimits = .off
        }
        try await withTestServer(backend, configure: configure) { server in
            let client = server.client()
            let flow = OAuthFlow(browser: client)
            // One sign-in with a wrong password, one that succeeds, a refresh, and a replay of
            // the rotated refresh token.
            let attempt = OAuthFlow.Attempt()
            let page = try await flow.authorize(attempt)
            #expect(try await flow.submitLogin(page: page, password: "wrong password").status == 401)
            let (tokens, _) = try await flow.tokens()
            let refresh = try #require(tokens.refreshToken)
            #expect(try await client.refresh(refresh).status == 200)
            #expect(try await client.refresh(refresh).status == 400)
            let credentials = try await client.postForm(
                "/token", ["grant_type": "client_credentials", "scope": "api.read"],
                headers: HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret))
            #expect(credentials.status == 200, "\(credentials.text)")

            #expect(try await client.get("/metrics").status == 401)
            let wrong = try await client.get("/metrics", headers: ["Authorization": "Bearer " + Self.token + "x"])
            #expect(wrong.status == 401)
            #expect(wrong.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)

            let scrape = try await client.get("/metrics", headers: ["Authorization": "Bearer " + Self.token])
            #expect(scrape.status == 200)
            #expect(scrape.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
            let metrics = PrometheusText(scrape.text)
            #expect(metrics.value(#"sesame_tokens_issued_total{grant_type="authorization_code"}"#) == 1)
            #expect(metrics.value(#"sesame_tokens_issued_total{grant_type="refresh_token"}"#) == 1)
            #expect(metrics.value(#"sesame_tokens_issued_total{grant_type="client_credentials"}"#) == 1)
            #expect(metrics.value(#"sesame_sign_ins_total{outcome="wrong_password"}"#) == 1)
            #expect(metrics.value(#"sesame_sign_ins_total{outcome="success"}"#) == 1)
            #expect(metrics.value("sesame_refresh_token_reuse_total") == 1)
            #expect(metrics.value(#"sesame_http_requests_total{route="/token",method="POST",status="200"}"#) == 3)
            #expect(metrics.value(#"sesame_http_requests_total{route="/token",method="POST",status="400"}"#) == 1)
            #expect(metrics.value(#"sesame_http_requests_total{route="/login",method="POST",status="401"}"#) == 1)
            #expect(metrics.value(#"sesame_http_request_duration_seconds_count{route="/token",method="POST"}"#) == 4)
            #expect(metrics.value(#"sesame_http_request_duration_seconds_bucket{route="/token",method="POST",le="+Inf"}"#) == 4)
            // The refused scrapes were counted; the unknown path under one label, not its own.
            #expect(metrics.value(#"sesame_http_requests_total{route="/metrics",method="GET",status="401"}"#) == 2)
            let name = backend == .postgres ? "postgres" : "sqlite"
            #expect((metrics.value("sesame_store_statement_duration_seconds_count{backend=\"\(name)\"}") ?? 0) > 10)
            // The gauges return to zero: the server's own background statements (the audit log's
            // flush, the key-change watch) may be running at one scrape, so a few are taken.
            var idle = metrics
            for _ in 0..<20 {
                let inFlight = idle.value("sesame_store_statements_in_flight{backend=\"\(name)\"}")
                let inUse = idle.value(#"sesame_store_pool_connections_in_use{backend="postgres"}"#)
                if inFlight == 0, backend != .postgres || inUse == 0 { break }
                try await Task.sleep(nanoseconds: 100_000_000)
                idle = PrometheusText(
                    try await client.get("/metrics", headers: ["Authorization": "Bearer " + Self.token]).text)
            }
            #expect(idle.value("sesame_store_statements_in_flight{backend=\"\(name)\"}") == 0)
            if backend == .postgres {
                #expect((metrics.value(#"sesame_store_pool_wait_seconds_count{backend="postgres"}"#) ?? 0) > 10)
                #expect(idle.value(#"sesame_store_pool_connections_in_use{backend="postgres"}"#) == 0)
            }
            // Secrets never become labels.
            #expect(!scrape.text.contains(refresh))
            #expect(!scrape.text.contains(Fixtures.password))
        }
    }

    @Test("unknown paths share the label 'unmatched', so a scanner cannot grow the label set")
    func unmatchedRoutes() async throws {
        try await withTestServer(configure: { $0.metrics = .bearerToken(Self.token) }) { server in
            let client = server.client()
            for index in 0..<5 { #expect(try await client.get("/scan-\(index).php").status == 404) }
            let text = try await client.get("/metrics", headers: ["Authorization": "Bearer " + Self.token]).text
            #expect(PrometheusText(text).value(#"sesame_http_requests_total{route="unmatched",method="GET",status="404"}"#) == 5)
            #expect(!text.contains("scan-"))
        }
    }

    @Test("a metrics port of its own: /metrics there without a token, and not on the main port")
    func separatePort() async throws {
        try await withTestServer(configure: { $0.metrics = .port(0) }) { server in
            let metricsPort = try #require(server.running.metricsPort)
            #expect(metricsPort != server.running.port)
            #expect(try await server.client().get("/metrics").status == 404)
            let scraper = HTTPTestClient(baseURL: URL(string: "http://127.0.0.1:\(metricsPort)")!)
            _ = try await server.client().get("/.well-known/openid-configuration")
            let scrape = try await scraper.get("/metrics")
            #expect(scrape.status == 200)
            #expect(
                PrometheusText(scrape.text).value(
                    #"sesame_http_requests_total{route="/.well-known/openid-configuration",method="GET",status="200"}"#) == 1)
            #expect(try await scraper.get("/token").status == 404, "the metrics port serves /metrics only")
        }
    }
}

/// Reads sample values out of a Prometheus text exposition.
struct PrometheusText {
    private var samples: [String: Double] = [:]

    init(_ text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
    }

    /// The value of the sample named exactly so (name and labels as printed).
    func value(_ sample: String) -> Double? { samples[sample] }
}
