import Benchmark
import Foundation
import SesameProtocol
import Synchronization

/// Issue #31's side-by-side mode: the same load against the release `sesame serve` and against
/// glewlwyd 2.7.5 from Debian's package (``GlewlwydProcess``), both on SQLite on disk, each in
/// its own process, `wrk` with one thread and 32 connections. Each iteration runs one round
/// against each server, in alternating order (Sesame first in even iterations, glewlwyd first
/// in odd ones), so both see the same moments of this VM, whose speed drifts over seconds.
///
/// Metrics per iteration: each server's requests/s, p99 and CPU per request, and the ratio
/// Sesame ÷ glewlwyd (×100). The refresh grant also reports its share of the machine's signing
/// bound as `openssl speed -multi <cores> rsa2048` measures it, right after the two rounds.
///
/// Run: `swift package benchmark --target ServerBenchmarks --filter "Side by side.*"`.
let sesameRate = BenchmarkMetric.custom("Sesame requests/s", polarity: .prefersLarger, useScalingFactor: false)
let peerRate = BenchmarkMetric.custom("glewlwyd requests/s", polarity: .prefersLarger, useScalingFactor: false)
let ratio = BenchmarkMetric.custom("Sesame / glewlwyd (x100)", polarity: .prefersLarger, useScalingFactor: false)
let sesameP99 = BenchmarkMetric.custom("Sesame p99 (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let peerP99 = BenchmarkMetric.custom("glewlwyd p99 (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let sesameCPU = BenchmarkMetric.custom("Sesame CPU per request (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let peerCPU = BenchmarkMetric.custom("glewlwyd CPU per request (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let opensslBound = BenchmarkMetric.custom(
    "openssl signing bound (refreshes/s)", polarity: .prefersLarger, useScalingFactor: false)
let percentOfOpenSSL = BenchmarkMetric.custom(
    "Sesame % of openssl signing bound", polarity: .prefersLarger, useScalingFactor: false)
/// Issue #50's own figure: Sesame's CPU per refresh less what its signatures cost at the bound.
let sesameOutsideSignatures = BenchmarkMetric.custom(
    "Sesame CPU outside the signatures (µs)", polarity: .prefersSmaller, useScalingFactor: false)

let sesameAnonymous = BenchmarkMetric.custom("Sesame peak anonymous (MB)", polarity: .prefersSmaller, useScalingFactor: false)
let peerAnonymous = BenchmarkMetric.custom("glewlwyd peak anonymous (MB)", polarity: .prefersSmaller, useScalingFactor: false)
let anonymousRatio = BenchmarkMetric.custom(
    "Sesame / glewlwyd peak anonymous (x100)", polarity: .prefersSmaller, useScalingFactor: false)
let sesameFileBacked = BenchmarkMetric.custom(
    "Sesame peak file-backed (MB)", polarity: .prefersSmaller, useScalingFactor: false)
let peerFileBacked = BenchmarkMetric.custom(
    "glewlwyd peak file-backed (MB)", polarity: .prefersSmaller, useScalingFactor: false)

let sideBySideMetrics = [
    sesameRate, peerRate, ratio, sesameP99, peerP99, sesameCPU, peerCPU,
    sesameAnonymous, peerAnonymous, anonymousRatio, sesameFileBacked, peerFileBacked,
]

/// What one side-by-side benchmark needs minted before it starts.
struct SideBySideNeeds: Sendable {
    var refreshBatches = 0
    var browserSessions = 0
    /// The algorithm of Sesame's access tokens for its public client (`RS256`, or `ES256` as a
    /// client may opt in; ID tokens stay RS256).
    var accessTokenAlgorithm = "RS256"
}

/// Both servers of one side-by-side benchmark and what each issued.
final class SideBySideFixture: Sendable {
    static let shared = SideBySideFixture()

    struct Servers: Sendable {
        var sesame: ServerProcess
        var sesameTokenFiles: [URL]
        var sesameSessions: URL?
        var sesameAccessToken: String
        var peer: GlewlwydProcess
        var peerMaterial: GlewlwydProcess.Material
        /// Each server's peak resident memory over the rounds so far.
        var sesameMemory: PeakMemorySampler
        var peerMemory: PeakMemorySampler
    }

    private let rounds = IteratedServers<Servers>()
    let pkce = PKCE()

    func start(_ needs: SideBySideNeeds) async throws {
        // One batch more than the iterations use: its first token buys Sesame's access token.
        let batches = needs.refreshBatches + 1
        let (servers, files, _, sessions) = try await ServerProcess.start(
            refreshBatches: batches, familiesPerBatch: connections + 8, extraArguments: Deployment().extraArguments,
            accessTokenAlgorithm: needs.accessTokenAlgorithm, browserSessions: needs.browserSessions)
        guard let sesame = servers.first, let spare = files.last?.first else { throw BenchmarkSetupError("no server") }
        do {
            let accessToken = try await Self.sesameAccessToken(sesame, tokenFile: spare)
            let (peer, material) = try await GlewlwydProcess.start(
                refreshBatches: needs.refreshBatches, tokensPerBatch: connections + 8,
                browserSessions: needs.browserSessions, pkce: pkce)
            rounds.set(
                Servers(
                    sesame: sesame, sesameTokenFiles: files.dropLast().compactMap(\.first),
                    sesameSessions: sessions, sesameAccessToken: accessToken, peer: peer, peerMaterial: material,
                    sesameMemory: PeakMemorySampler(pid: sesame.pid), peerMemory: PeakMemorySampler(pid: peer.pid)))
        } catch {
            await ServerProcess.stop(servers)
            throw error
        }
    }

    /// An access token from a refresh of one of Sesame's families (the way an app gets one).
    static func sesameAccessToken(_ server: ServerProcess, tokenFile: URL) async throws -> String {
        let text = try String(contentsOf: tokenFile, encoding: .utf8)
        guard let token = text.split(separator: "\n").first else { throw BenchmarkSetupError("no refresh token") }
        let json = try await PeerHTTP(base: server.issuer).form(
            "/token",
            ["grant_type": "refresh_token", "client_id": ServerProcess.refreshClientID, "refresh_token": String(token)]
        ).json("Sesame refresh")
        guard let access = json["access_token"] as? String else { throw BenchmarkSetupError("no access token") }
        return access
    }

    /// The servers and the number of this iteration (counting from 0, the warm-up included).
    func next() throws -> (Servers, Int) { try rounds.next() }

    func stop() async {
        guard let servers = rounds.take() else { return }
        await ServerProcess.stop([servers.sesame])
        await servers.peer.stop()
    }
}

/// One round of load against one server: the wrk result and the server's CPU per request (µs);
/// `memory`, when given, samples the server's memory during the round.
func round(
    issuer: String, cpuSeconds: () -> Double, memory: PeakMemorySampler? = nil, script: String,
    environment: [String: String], connections: Int = connections
) async throws -> (WrkLoad.Result, Int) {
    let before = cpuSeconds()
    let load = WrkLoad(issuer: issuer, connections: connections, duration: seconds)
    let result =
        if let memory {
            try await memory.sampling { try await load.run(script: script, environment: environment) }
        } else {
            try await load.run(script: script, environment: environment)
        }
    let cpu = cpuSeconds() - before
    guard result.non2xx == 0, result.socketErrors == 0, result.requests > 0 else {
        throw BenchmarkSetupError(
            "\(issuer): \(result.non2xx) error responses, \(result.socketErrors) socket errors, \(result.requests) requests")
    }
    return (result, Int(cpu * 1e6 / Double(result.requests)))
}

/// A load for both servers: the Lua script and its environment for each, from the fixture and
/// the iteration's number.
struct SideBySideLoad: Sendable {
    var sesame: @Sendable (SideBySideFixture.Servers, Int) throws -> (String, [String: String])
    var glewlwyd: @Sendable (SideBySideFixture.Servers, Int) throws -> (String, [String: String])
}

/// Registers one side-by-side benchmark; gives `after` Sesame's rate of each iteration and its
/// CPU per request (µs).
func sideBySideBenchmark(
    _ name: String, needs: SideBySideNeeds = SideBySideNeeds(), extraMetrics: [BenchmarkMetric] = [],
    load: SideBySideLoad, after: (@Sendable (Benchmark, WrkLoad.Result, Int) async throws -> Void)? = nil
) {
    Benchmark(
        name,
        configuration: .init(
            metrics: sideBySideMetrics + extraMetrics, warmupIterations: 1, maxDuration: .seconds(120),
            maxIterations: iterations,
            setup: { try await SideBySideFixture.shared.start(needs) },
            teardown: { await SideBySideFixture.shared.stop() })
    ) { benchmark in
        let (servers, iteration) = try SideBySideFixture.shared.next()
        let (sesameScript, sesameEnvironment) = try load.sesame(servers, iteration)
        let (peerScript, peerEnvironment) = try load.glewlwyd(servers, iteration)
        func runSesame() async throws -> (WrkLoad.Result, Int) {
            try await round(
                issuer: servers.sesame.issuer, cpuSeconds: { servers.sesame.cpuSeconds }, memory: servers.sesameMemory,
                script: sesameScript,
                environment: sesameEnvironment)
        }
        func runPeer() async throws -> (WrkLoad.Result, Int) {
            try await round(
                issuer: servers.peer.base, cpuSeconds: { servers.peer.cpuSeconds }, memory: servers.peerMemory,
                script: peerScript,
                environment: peerEnvironment)
        }
        benchmark.startMeasurement()
        let ours: (WrkLoad.Result, Int)
        let theirs: (WrkLoad.Result, Int)
        if iteration % 2 == 0 {
            ours = try await runSesame()
            theirs = try await runPeer()
        } else {
            theirs = try await runPeer()
            ours = try await runSesame()
        }
        benchmark.stopMeasurement()
        benchmark.measurement(sesameRate, Int(ours.0.requestsPerSecond))
        benchmark.measurement(peerRate, Int(theirs.0.requestsPerSecond))
        benchmark.measurement(ratio, Int((100 * ours.0.requestsPerSecond / theirs.0.requestsPerSecond).rounded()))
        benchmark.measurement(sesameP99, ours.0.p99.microseconds)
        benchmark.measurement(peerP99, theirs.0.p99.microseconds)
        benchmark.measurement(sesameCPU, ours.1)
        benchmark.measurement(peerCPU, theirs.1)
        if let ours = servers.sesameMemory.peak, let theirs = servers.peerMemory.peak {
            benchmark.measurement(sesameAnonymous, ours.anonymous >> 20)
            benchmark.measurement(peerAnonymous, theirs.anonymous >> 20)
            benchmark.measurement(anonymousRatio, 100 * ours.anonymous / max(theirs.anonymous, 1))
            benchmark.measurement(sesameFileBacked, ours.fileBacked >> 20)
            benchmark.measurement(peerFileBacked, theirs.fileBacked >> 20)
        }
        try await after?(benchmark, ours.0, ours.1)
    }
}

func registerSideBySideBenchmarks() {
    // Sesame signs an RS256 ID token and an RS256 access token per refresh; glewlwyd signs the
    // RS256 access token only (it sends no ID token on a refresh).
    refreshSideBySide("Side by side: refresh_token grant, Sesame vs glewlwyd (32 connections)", Deployment())
    // The other means: a client that opted into ES256 access tokens, so a refresh signs
    // once with RSA (its RS256 ID token) and once with P-256.
    refreshSideBySide(
        "Side by side: refresh_token grant, ES256 access tokens, Sesame vs glewlwyd (32 connections)",
        Deployment(accessTokenAlgorithm: "ES256"))

    sideBySideBenchmark(
        "Side by side: client_credentials grant, Sesame vs glewlwyd (32 connections)",
        load: SideBySideLoad(
            sesame: { servers, _ in
                (
                    WrkScripts.clientCredentials(
                        clientID: ServerProcess.confidentialClientID, secret: servers.sesame.clientSecret), [:]
                )
            },
            glewlwyd: { _, _ in
                (
                    WrkScripts.clientCredentials(
                        clientID: GlewlwydProcess.confidentialClientID, secret: GlewlwydProcess.confidentialSecret,
                        tokenPath: GlewlwydProcess.tokenPath), [:]
                )
            }))

    sideBySideBenchmark(
        "Side by side: userinfo, Sesame vs glewlwyd (32 connections)",
        load: SideBySideLoad(
            sesame: { servers, _ in (WrkScripts.userinfo(path: "/userinfo", accessToken: servers.sesameAccessToken), [:]) },
            glewlwyd: { servers, _ in
                (
                    WrkScripts.userinfo(
                        path: GlewlwydProcess.userinfoPath, accessToken: servers.peerMaterial.accessToken), [:]
                )
            }))

    sideBySideBenchmark(
        "Side by side: discovery document, Sesame vs glewlwyd (32 connections)",
        load: SideBySideLoad(
            sesame: { _, _ in (WrkScripts.discovery, [:]) },
            glewlwyd: { _, _ in (WrkScripts.discovery(path: GlewlwydProcess.discoveryPath), [:]) }))

    // Browser single sign-on: a signed-in browser's authorization request answered with a code
    // from its session, then the code exchanged (two requests a sign-in, PKCE on both servers).
    let pkce = SideBySideFixture.shared.pkce
    sideBySideBenchmark(
        "Side by side: browser SSO sign-in, Sesame vs glewlwyd (32 connections)",
        needs: SideBySideNeeds(browserSessions: connections),
        load: SideBySideLoad(
            sesame: { servers, _ in
                guard let sessions = servers.sesameSessions else { throw BenchmarkSetupError("no sessions") }
                return (
                    WrkScripts.browserSSO(clientID: ServerProcess.refreshClientID, pkce: pkce),
                    ["SESAME_SESSIONS": sessions.path]
                )
            },
            glewlwyd: { servers, _ in
                (
                    WrkScripts.browserSSO(
                        clientID: GlewlwydProcess.clientID, pkce: pkce,
                        paths: WrkScripts.SignInPaths(
                            authorize: GlewlwydProcess.authorizePath, token: GlewlwydProcess.tokenPath,
                            cookiePrefix: GlewlwydProcess.sessionCookieName + "=", extraQuery: "&g_continue",
                            scope: "openid")),
                    ["SESAME_SESSIONS": servers.peerMaterial.sessionCookies.path]
                )
            }))
}

/// The refresh grant side by side, Sesame's client signing its access tokens as `deployment`
/// says; also reports Sesame's share of `openssl speed`'s bound for the signatures a refresh
/// makes (RSA, and ECDSA P-256 with ES256 access tokens).
private func refreshSideBySide(_ name: String, _ deployment: Deployment) {
    sideBySideBenchmark(
        name,
        needs: SideBySideNeeds(refreshBatches: iterations + 1, accessTokenAlgorithm: deployment.accessTokenAlgorithm),
        extraMetrics: [opensslBound, percentOfOpenSSL, sesameOutsideSignatures],
        load: SideBySideLoad(
            sesame: { servers, iteration in
                guard iteration < servers.sesameTokenFiles.count else { throw BenchmarkSetupError("out of tokens") }
                return (
                    WrkScripts.refresh(clientID: ServerProcess.refreshClientID),
                    ["SESAME_TOKENS": servers.sesameTokenFiles[iteration].path]
                )
            },
            glewlwyd: { servers, iteration in
                let files = servers.peerMaterial.refreshTokenFiles
                guard iteration < files.count else { throw BenchmarkSetupError("out of tokens") }
                return (
                    WrkScripts.refresh(clientID: GlewlwydProcess.clientID, tokenPath: GlewlwydProcess.tokenPath),
                    ["SESAME_TOKENS": files[iteration].path]
                )
            }),
        after: { benchmark, ours, cpuPerRefresh in
            let rsa = try await OpenSSLSpeed.rsa2048SignaturesPerSecond()
            let ecdsa = deployment.es256SignaturesPerRefresh > 0 ? try await OpenSSLSpeed.ecdsaP256SignaturesPerSecond() : 1
            let bound = SigningBound.refreshBound(
                rsa: deployment.rsaSignaturesPerRefresh, es256: deployment.es256SignaturesPerRefresh,
                rsaPerSecond: rsa, es256PerSecond: ecdsa)
            benchmark.measurement(opensslBound, Int(bound.refreshesPerSecond))
            benchmark.measurement(percentOfOpenSSL, Int((100 * ours.requestsPerSecond / bound.refreshesPerSecond).rounded()))
            benchmark.measurement(
                sesameOutsideSignatures, SigningBound.outsideSignatures(cpuPerRefresh: Double(cpuPerRefresh), bound: bound))
        })
}
