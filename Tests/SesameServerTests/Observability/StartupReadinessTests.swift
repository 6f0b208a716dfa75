import Foundation
import Logging
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server answers no request before every route can answer (issue #44): the port is bound
/// before the router exists (the issuer may name the bound port), and a request arriving in
/// that moment waits for the router instead of getting 503. Checked as a client would see it:
/// discovery polled from the moment the port opens, then the key set at once, over 100 starts.
@Suite("Start-up readiness")
struct StartupReadinessTests {
    /// A loopback port nothing listens on now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test("discovery, then the key set at once: never a 503, over 100 starts (3 on fresh data directories)")
    func discoveryThenKeys() async throws {
        var logger = Logger(label: "sesame.tests.readiness")
        logger.logLevel = .error
        let reused = try StoreSandbox.make()
        defer { reused.remove() }
        for round in 0..<100 {
            let fresh = round < 3 ? try StoreSandbox.make() : nil
            defer { fresh?.remove() }
            let port = try Self.freePort()
            var configuration = ServerConfiguration(
                dataDirectory: (fresh ?? reused).dataDirectory, port: port, passwordHasher: TestServer.hasher)
            configuration.challenges = .off
            configuration.purgeInterval = nil
            let starting = Task { [configuration] in try await IdentityServer.start(configuration, logger: logger) }
            let client = HTTPTestClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!)
            var discovery: TestResponse?
            while discovery == nil {
                discovery = try? await client.get("/.well-known/openid-configuration")
                if discovery == nil { await Task.yield() }
            }
            let keys = try await client.get("/jwks")
            let server = try await starting.value
            #expect(discovery?.status == 200, "round \(round): discovery \(discovery?.status ?? 0)")
            #expect(keys.status == 200, "round \(round): the key set answered \(keys.status) after discovery answered")
            #expect((keys.jsonObject["keys"] as? [Any])?.isEmpty == false, "round \(round)")
            try await server.shutdown()
        }
    }
}
