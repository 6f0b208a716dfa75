import Benchmark
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Issue #48's transport benchmark: the release `sesame serve` with its own TLS
/// (`--tls-certificate`, a P-256 certificate made with `openssl` for the run) side by side with
/// the same server over plain HTTP, in one run, rounds alternating:
///
/// - the refresh grant over 32 keep-alive connections (wrk), TLS against plain: requests/s and
///   the server's CPU per request;
/// - TLS handshakes, with `openssl s_time` (one client, a new connection each time, the
///   connection closed after the handshake): full handshakes (`-new`) and resumed ones (`-reuse`,
///   the session resumed as an SDK reconnecting later does), each as connections/s and the
///   server's CPU per handshake, against Sesame and, as the peer, `openssl s_server` (OpenSSL's
///   own TLS server, one process) with the same certificate.
///
/// Run: `swift package benchmark --target ServerBenchmarks --filter "TLS.*"`.
let tlsRate = BenchmarkMetric.custom("TLS refresh requests/s", polarity: .prefersLarger, useScalingFactor: false)
let plainRate = BenchmarkMetric.custom("plain refresh requests/s", polarity: .prefersLarger, useScalingFactor: false)
let tlsShare = BenchmarkMetric.custom("TLS / plain (x100)", polarity: .prefersLarger, useScalingFactor: false)
let tlsCPU = BenchmarkMetric.custom("TLS CPU per refresh (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let plainCPU = BenchmarkMetric.custom("plain CPU per refresh (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let fullHandshakes = BenchmarkMetric.custom("Sesame full handshakes/s", polarity: .prefersLarger, useScalingFactor: false)
let fullHandshakeCPU = BenchmarkMetric.custom("Sesame CPU per full handshake (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let resumedHandshakes = BenchmarkMetric.custom("Sesame resumed handshakes/s", polarity: .prefersLarger, useScalingFactor: false)
let resumedHandshakeCPU = BenchmarkMetric.custom(
    "Sesame CPU per resumed handshake (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let peerFullHandshakeCPU = BenchmarkMetric.custom(
    "peer s_server CPU per full handshake (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let peerResumedHandshakeCPU = BenchmarkMetric.custom(
    "peer s_server CPU per resumed handshake (µs)", polarity: .prefersSmaller, useScalingFactor: false)

/// `openssl s_server` on a free port with the benchmark's certificate: the handshake peer.
struct OpenSSLServer: Sendable {
    let port: Int
    let process: Process
    var cpuSeconds: Double { ProcessCPU.seconds(pid: process.processIdentifier) }

    static func start(certificates: URL) async throws -> OpenSSLServer {
        let port = try FreePort.pick()
        let process = Process()
        process.executableURL = try Executables.find("openssl", package: "openssl")
        process.arguments = [
            "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificates.appendingPathComponent("cert.pem").path,
            "-key", certificates.appendingPathComponent("key.pem").path, "-quiet", "-naccept", "100000000",
        ]
        process.environment = ChildEnvironment.withoutBenchmarkHooks()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<100 {
            let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(probe)
            if connected == 0 { return OpenSSLServer(port: port, process: process) }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        throw BenchmarkSetupError("openssl s_server did not listen on \(port)")
    }
}

/// The two servers of the TLS benchmark and their refresh tokens.
final class TLSFixture: Sendable {
    static let shared = TLSFixture()

    struct Servers: Sendable {
        var tls: ServerProcess
        /// The same server over plain HTTP, for the refresh benchmark only.
        var plain: ServerProcess?
        var tlsTokens: [URL]
        var plainTokens: [URL]
        var certificates: URL
        var peer: OpenSSLServer
    }

    private let rounds = IteratedServers<Servers>()

    /// `refresh`: also the plain server, and refresh tokens for both; else the TLS server and the peer only.
    func start(refresh: Bool) async throws {
        let certificates = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-bench-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: certificates, withIntermediateDirectories: true)
        let openssl = try Executables.find("openssl", package: "openssl")
        try await ChildRun.run(openssl, [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", certificates.appendingPathComponent("key.pem").path,
            "-out", certificates.appendingPathComponent("cert.pem").path, "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        let tlsArguments = [
            "--tls-certificate", certificates.appendingPathComponent("cert.pem").path,
            "--tls-key", certificates.appendingPathComponent("key.pem").path,
        ]
        let deployment = Deployment()
        let batches = refresh ? iterations + 1 : 0
        let (tls, tlsFiles, _, _) = try await ServerProcess.start(
            refreshBatches: batches, familiesPerBatch: connections + 8,
            extraArguments: deployment.extraArguments + tlsArguments)
        var plain: [ServerProcess] = []
        do {
            var plainFiles: [[URL]] = []
            if refresh {
                (plain, plainFiles, _, _) = try await ServerProcess.start(
                    refreshBatches: batches, familiesPerBatch: connections + 8, extraArguments: deployment.extraArguments)
            }
            guard let tlsServer = tls.first else { throw BenchmarkSetupError("no server") }
            let peer = try await OpenSSLServer.start(certificates: certificates)
            rounds.set(
                Servers(
                    tls: tlsServer, plain: plain.first, tlsTokens: tlsFiles.compactMap(\.first),
                    plainTokens: plainFiles.compactMap(\.first), certificates: certificates, peer: peer))
        } catch {
            await ServerProcess.stop(tls + plain)
            throw error
        }
    }

    func next() throws -> (Servers, Int) { try rounds.next() }

    func stop() async {
        guard let servers = rounds.take() else { return }
        await ServerProcess.stop([servers.tls] + [servers.plain].compactMap { $0 })
        servers.peer.process.terminate()
        try? FileManager.default.removeItem(at: servers.certificates)
    }
}

/// `openssl s_time` against the server on `port` for `seconds`: handshakes per second and the
/// server's CPU per handshake (µs). `resumed`: `-reuse` (one full handshake, then resumed sessions).
private func handshakes(port: Int, cpuSeconds: () -> Double, resumed: Bool) async throws -> (perSecond: Int, cpu: Int) {
    let openssl = try Executables.find("openssl", package: "openssl")
    let before = cpuSeconds()
    let output = try await ChildRun.run(
        openssl, ["s_time", "-connect", "127.0.0.1:\(port)", resumed ? "-reuse" : "-new", "-time", "\(seconds)"])
    let cpu = cpuSeconds() - before
    // "1363 connections in 4 real seconds, 0 bytes read per connection"
    guard let line = output.split(separator: "\n").last(where: { $0.contains("real seconds") }),
        let count = line.split(separator: " ").first.flatMap({ Int($0) }), count > 0
    else { throw BenchmarkSetupError("openssl s_time printed no count:\n\(output.suffix(400))") }
    let words = line.split(separator: " ")
    let realSeconds = words.firstIndex(of: "real").flatMap { Double(words[$0 - 1]) } ?? Double(seconds)
    return (Int(Double(count) / max(realSeconds, 1)), Int(cpu * 1e6 / Double(count)))
}

func registerTLSBenchmarks() {
    // Two benchmarks of one run (the runner prints a table of at most about eight metrics whole).
    Benchmark(
        "TLS: refresh over the server's TLS vs plain HTTP (32 connections)",
        configuration: .init(
            metrics: [tlsRate, plainRate, tlsShare, tlsCPU, plainCPU],
            warmupIterations: 1, maxDuration: .seconds(120), maxIterations: iterations,
            setup: { try await TLSFixture.shared.start(refresh: true) },
            teardown: { await TLSFixture.shared.stop() })
    ) { benchmark in
        let (servers, iteration) = try TLSFixture.shared.next()
        guard let plainServer = servers.plain, iteration < servers.tlsTokens.count, iteration < servers.plainTokens.count
        else { throw BenchmarkSetupError("out of tokens") }
        func refresh(_ server: ServerProcess, _ tokens: URL) async throws -> (WrkLoad.Result, Int) {
            try await round(
                issuer: server.issuer, cpuSeconds: { server.cpuSeconds },
                script: WrkScripts.refresh(clientID: ServerProcess.refreshClientID), environment: ["SESAME_TOKENS": tokens.path])
        }
        benchmark.startMeasurement()
        let secure: (WrkLoad.Result, Int)
        let plain: (WrkLoad.Result, Int)
        if iteration % 2 == 0 {
            secure = try await refresh(servers.tls, servers.tlsTokens[iteration])
            plain = try await refresh(plainServer, servers.plainTokens[iteration])
        } else {
            plain = try await refresh(plainServer, servers.plainTokens[iteration])
            secure = try await refresh(servers.tls, servers.tlsTokens[iteration])
        }
        benchmark.stopMeasurement()
        benchmark.measurement(tlsRate, Int(secure.0.requestsPerSecond))
        benchmark.measurement(plainRate, Int(plain.0.requestsPerSecond))
        benchmark.measurement(tlsShare, Int((100 * secure.0.requestsPerSecond / plain.0.requestsPerSecond).rounded()))
        benchmark.measurement(tlsCPU, secure.1)
        benchmark.measurement(plainCPU, plain.1)
    }

    Benchmark(
        "TLS: full and resumed handshakes, Sesame vs openssl s_server",
        configuration: .init(
            metrics: [fullHandshakes, fullHandshakeCPU, resumedHandshakes, resumedHandshakeCPU, peerFullHandshakeCPU,
                      peerResumedHandshakeCPU],
            warmupIterations: 1, maxDuration: .seconds(120), maxIterations: iterations,
            setup: { try await TLSFixture.shared.start(refresh: false) },
            teardown: { await TLSFixture.shared.stop() })
    ) { benchmark in
        let (servers, iteration) = try TLSFixture.shared.next()
        guard let port = URL(string: servers.tls.issuer)?.port else { throw BenchmarkSetupError("no port") }
        let sesame = servers.tls
        let peer = servers.peer
        func sesameRounds() async throws -> ((perSecond: Int, cpu: Int), (perSecond: Int, cpu: Int)) {
            (try await handshakes(port: port, cpuSeconds: { sesame.cpuSeconds }, resumed: false),
             try await handshakes(port: port, cpuSeconds: { sesame.cpuSeconds }, resumed: true))
        }
        func peerRounds() async throws -> ((perSecond: Int, cpu: Int), (perSecond: Int, cpu: Int)) {
            (try await handshakes(port: peer.port, cpuSeconds: { peer.cpuSeconds }, resumed: false),
             try await handshakes(port: peer.port, cpuSeconds: { peer.cpuSeconds }, resumed: true))
        }
        benchmark.startMeasurement()
        let ours: ((perSecond: Int, cpu: Int), (perSecond: Int, cpu: Int))
        let theirs: ((perSecond: Int, cpu: Int), (perSecond: Int, cpu: Int))
        if iteration % 2 == 0 {
            ours = try await sesameRounds()
            theirs = try await peerRounds()
        } else {
            theirs = try await peerRounds()
            ours = try await sesameRounds()
        }
        benchmark.stopMeasurement()
        benchmark.measurement(fullHandshakes, ours.0.perSecond)
        benchmark.measurement(fullHandshakeCPU, ours.0.cpu)
        benchmark.measurement(resumedHandshakes, ours.1.perSecond)
        benchmark.measurement(resumedHandshakeCPU, ours.1.cpu)
        benchmark.measurement(peerFullHandshakeCPU, theirs.0.cpu)
        benchmark.measurement(peerResumedHandshakeCPU, theirs.1.cpu)
    }
}
