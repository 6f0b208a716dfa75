import Foundation
import Logging
import Sesame
import SesameNIOTransport
import SesameProtocol
import SesameServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Certificate pinning end to end (issue #48): the SDK with `NIOTransport` against the real
/// server over its own TLS, with certificates a throw-away CA issued in the test. The right pin
/// signs in; the backup pin alone is enough; a wrong pin is refused before the token request
/// leaves (the server's own request counter says nothing arrived); expired pins are ignored;
/// trust is never replaced by pins (an unknown CA or a wrong name fails with or without pins); a
/// certificate rotated under the running server, with the CA's key as the backup pin, keeps working.
@Suite(
    "Certificate pinning over the server's TLS (NIOTransport)",
    .enabled(if: ToolRun.available("openssl") || ProcessInfo.processInfo.environment["CI"] == "true", "needs openssl"))
struct CertificatePinningTLSTests {
    static let metricsToken = "metrics-token-" + String(repeating: "p", count: 24)
    static let unused = try! PublicKeyPin("sha256/" + Data(repeating: 7, count: 32).base64EncodedString())

    struct Fixture {
        let server: IntegrationServer
        let certificates: TestCertificates
        let roots: NIOTransport.TrustRoots
        var leafPin: PublicKeyPin { get throws { try PublicKeyPin(certificateDER: certificates.der(certificates.certificateFile)) } }
        var caPin: PublicKeyPin { get throws { try PublicKeyPin(certificateDER: certificates.der(certificates.caFile)) } }

        func client(_ pins: [PublicKeyPin], expires: Date? = nil, analytics: (any SesameAnalytics)? = nil) -> (SesameClient, NIOTransport) {
            var configuration = server.configuration()
            configuration.pinning = CertificatePinning(hosts: [PinnedHost(host: "127.0.0.1", pins: pins, expires: expires)])
            let transport = NIOTransport(pinning: configuration.pinning, trustRoots: roots)
            var logger = Logger(label: "sesame.it.pinning")
            logger.logLevel = .critical
            let client = SesameClient(
                configuration: configuration, store: InMemoryCredentialStore(), transport: transport,
                clock: SystemClock(), logger: logger, retryPolicy: .none)
            if let analytics { client.setAnalytics(analytics) }
            return (client, transport)
        }

        /// Requests the server counted, by route, read over TLS with the CA as the pin.
        func requestCounts() async throws -> [String: Double] {
            var request = URLRequest(url: server.issuer.appendingPathComponent("metrics"))
            request.setValue("Bearer " + CertificatePinningTLSTests.metricsToken, forHTTPHeaderField: "Authorization")
            let pinning = CertificatePinning(hosts: [PinnedHost(host: "127.0.0.1", pins: [try caPin, CertificatePinningTLSTests.unused])])
            let (data, response) = try await NIOTransport(pinning: pinning, trustRoots: roots).send(request)
            #expect(response.statusCode == 200)
            var counts: [String: Double] = [:]
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n")
            where line.hasPrefix("sesame_http_requests_total{") && !line.contains(#"route="/metrics""#) {
                guard let route = line.split(separator: "route=\"").last?.split(separator: "\"").first,
                    let value = line.split(separator: " ").last.flatMap({ Double($0) })
                else { continue }
                counts[String(route), default: 0] += value
            }
            return counts
        }
    }

    func withTLSServer(_ body: (Fixture) async throws -> Void) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let files = TLSFiles(certificate: certificates.certificateFile, key: certificates.keyFile)
        let roots = try NIOTransport.TrustRoots.pemFile(certificates.caFile)
        try await withServer(configure: {
            $0.tls = files
            $0.metrics = .bearerToken(Self.metricsToken)
        }) { server in
            try await body(Fixture(server: server, certificates: certificates, roots: roots))
        }
    }

    @Test("the leaf's pin: discovery, password sign-in, userinfo and a refresh over TLS; the backup pin alone (the CA's key) is enough")
    func pinnedSignIn() async throws {
        try await withTLSServer { fixture in
            let user = try await fixture.server.addUser("pinned")
            #expect(fixture.server.issuer.scheme == "https")
            let (client, _) = fixture.client([try fixture.leafPin, Self.unused])
            _ = try await passwordLogin(client, user)
            #expect(try await client.userInfo().sub == user.sub)
            let first = try await client.validAccessToken()
            #expect(try await client.validAccessToken(forceRefresh: true) != first)

            let (backup, _) = fixture.client([Self.unused, try fixture.caPin])
            #expect(try await passwordLogin(backup, user).subject == user.sub)
        }
    }

    @Test("a wrong pin: certificate_pin_mismatch before the token request is sent (the server counted none), analytics told, no retry")
    func wrongPinSendsNothing() async throws {
        try await withTLSServer { fixture in
            let user = try await fixture.server.addUser("mallory")
            let analytics = RecordingAnalytics()
            let (client, _) = fixture.client([Self.unused, try PublicKeyPin("sha256/" + Data(repeating: 8, count: 32).base64EncodedString())], analytics: analytics)
            let before = try await fixture.requestCounts()
            do {
                _ = try await client.login(username: user.username, password: user.password)
                Issue.record("signed in through a connection whose keys are not pinned")
            } catch let error as SesameError {
                #expect(error.code == .certificatePinMismatch, "\(error)")
                #expect(error.pinMismatch?.host == "127.0.0.1")
                #expect(error.pinMismatch?.presented.contains(try fixture.leafPin) == true)
            }
            let after = try await fixture.requestCounts()
            #expect(after == before, "requests arrived: \(before) → \(after)")
            // The counter does count: a pinned client's discovery shows up.
            let (pinned, _) = fixture.client([try fixture.leafPin, Self.unused])
            _ = try await pinned.metadata()
            #expect(try await fixture.requestCounts() != after)
            let all = analytics.events.withLock { $0 }
            let events = all.filter { $0.name == .certificatePinMismatch }
            #expect(events.count == 1, "one event, no retry: \(all)")
            #expect(all.last?.name == .signInFailed && all.last?.attributes["error"] == "certificate_pin_mismatch", "\(all)")
            #expect(events.first?.attributes["host"] == "127.0.0.1")
            #expect(events.first?.attributes["presented_pins"]?.contains(try fixture.leafPin.description) == true)
        }
    }

    @Test("expired pins are ignored; pins never replace trust: an unknown CA and a name the certificate lacks fail, pinned or not")
    func trustFirst() async throws {
        try await withTLSServer { fixture in
            let user = try await fixture.server.addUser("expiry")
            let (expired, _) = fixture.client(
                [Self.unused, try PublicKeyPin("sha256/" + Data(repeating: 9, count: 32).base64EncodedString())],
                expires: Date().addingTimeInterval(-60))
            #expect(try await passwordLogin(expired, user).subject == user.sub)

            // The server's own leaf pinned, but the chain leads to no trusted root.
            let other = try await TestCertificates.make()
            defer { other.remove() }
            let strangers = try NIOTransport.TrustRoots.pemFile(other.caFile)
            let url = fixture.server.issuer.appendingPathComponent(".well-known/openid-configuration")
            for pinning in [CertificatePinning.none, CertificatePinning(hosts: [PinnedHost(host: "127.0.0.1", pins: [try fixture.leafPin, Self.unused])])] {
                await #expect(throws: URLError.self) {
                    _ = try await NIOTransport(pinning: pinning, trustRoots: strangers).send(URLRequest(url: url))
                }
            }
            // localhost is in the certificate, as 127.0.0.1 is.
            var named = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            named.host = "localhost"
            #expect(try await NIOTransport(trustRoots: fixture.roots).send(URLRequest(url: named.url!)).1.statusCode == 200)
            // A certificate of the trusted CA for another name only: refused, pinned or not.
            try "subjectAltName=DNS:elsewhere.example\n".write(
                toFile: fixture.certificates.path("san.ext"), atomically: true, encoding: .utf8)
            try await fixture.certificates.issue(commonName: "elsewhere")
            #expect(try fixture.server.running.reloadTLS())
            let elsewherePin = try fixture.leafPin
            for pinning in [CertificatePinning.none, CertificatePinning(hosts: [PinnedHost(host: "127.0.0.1", pins: [elsewherePin, Self.unused])])] {
                do {
                    _ = try await NIOTransport(pinning: pinning, trustRoots: fixture.roots).send(URLRequest(url: url))
                    Issue.record("a certificate without the host's name was accepted")
                } catch let error as URLError {
                    #expect(error.code == .serverCertificateUntrusted, "\(error)")
                    #expect(error.localizedDescription.contains("127.0.0.1"), "\(error.localizedDescription)")
                }
            }
        }
    }

    @Test("a certificate rotated under the running server: the CA-key backup pin keeps every request working; a leaf-only pin is refused after")
    func rotation() async throws {
        try await withTLSServer { fixture in
            let user = try await fixture.server.addUser("rotate")
            let (steady, _) = fixture.client([try fixture.leafPin, try fixture.caPin])
            let (leafOnly, _) = fixture.client([try fixture.leafPin, Self.unused])
            _ = try await passwordLogin(steady, user)
            _ = try await passwordLogin(leafOnly, user)
            // Requests run while the certificate is renewed with a new key and reloaded.
            let running = Task {
                var refreshed = 0
                for _ in 0..<10 {
                    _ = try await steady.validAccessToken(forceRefresh: true)
                    refreshed += 1
                }
                return refreshed
            }
            try await fixture.certificates.issue(commonName: "renewed")
            #expect(try fixture.server.running.reloadTLS())
            #expect(try await running.value == 10)
            #expect(try await steady.userInfo().sub == user.sub)
            do {
                _ = try await leafOnly.userInfo()
                Issue.record("the renewed key was accepted by a pin of the old one")
            } catch let error as SesameError {
                #expect(error.code == .certificatePinMismatch, "\(error)")
            }
        }
    }

}
