import Foundation
import Logging
import Testing
import TestSupport

@testable import Sesame

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Certificate pinning's decisions (issue #48), without a network: the pin form, the JSON
/// configuration, which entry decides for a host, the check against a chain (pins computed here
/// and by `openssl`), and the SDK refusing, before any request, a pinned host whose transport
/// does not enforce the pins. The handshakes themselves are in the integration suite.
@Suite("Certificate pinning (SDK)")
struct CertificatePinningTests {
    static let a = "sha256/" + Data(repeating: 1, count: 32).base64EncodedString()
    static let b = "sha256/" + Data(repeating: 2, count: 32).base64EncodedString()
    static let c = "sha256/" + Data(repeating: 3, count: 32).base64EncodedString()

    @Test("a pin is sha256/ and the base64 of 32 bytes; anything else is refused with the openssl recipe")
    func pinForm() throws {
        let pin = try PublicKeyPin(Self.a)
        #expect(pin.description == Self.a && pin.sha256.count == 32)
        for bad in ["", "sha1/" + Data(count: 20).base64EncodedString(), "sha256/not base64!",
                    "sha256/" + Data(count: 31).base64EncodedString(), Data(count: 32).base64EncodedString(),
                    "sha256/" + String(repeating: "A", count: 100_000)] {
            #expect(throws: SesameError.self) { try PublicKeyPin(bad) }
            do { _ = try PublicKeyPin(bad) } catch {
                #expect(error.code == .invalidConfiguration)
                #expect(error.description.count < 600, "an enormous pin is not echoed whole")
            }
        }
    }

    @Test("the JSON form: pinning entries with include_subdomains and a date or time of expiry; bad entries are explained")
    func json() throws {
        let json = """
            {"issuer": "https://id.example.com", "client_id": "app", "redirect_uri": "a.b:/cb",
             "pinning": [{"host": "id.example.com", "pins": ["\(Self.a)", "\(Self.b)"], "expires": "2031-06-30"},
                         {"host": "Example.org", "pins": ["\(Self.b)", "\(Self.c)"], "include_subdomains": true,
                          "expires": "2031-06-30T12:00:00Z"}]}
            """
        let configuration = try JSONDecoder().decode(SesameConfiguration.self, from: Data(json.utf8))
        try configuration.validate()
        let hosts = configuration.pinning.hosts
        #expect(hosts.count == 2 && hosts[0].pins.map(\.description) == [Self.a, Self.b] && !hosts[0].includeSubdomains)
        // A date counts to the end of that day (UTC).
        #expect(hosts[0].expires == ISO8601DateFormatter().date(from: "2031-07-01T00:00:00Z"))
        #expect(hosts[1].includeSubdomains && hosts[1].expires == ISO8601DateFormatter().date(from: "2031-06-30T12:00:00Z"))
        // Round trip.
        let again = try JSONDecoder().decode(SesameConfiguration.self, from: JSONEncoder().encode(configuration))
        #expect(again.pinning == configuration.pinning)

        let refusals: [(String, String)] = [
            (#"[{"host": "id.example.com", "pins": ["\#(Self.a)"]}]"#, "at least two different pins"),
            (#"[{"host": "id.example.com", "pins": ["\#(Self.a)", "\#(Self.a)"]}]"#, "at least two different pins"),
            (#"[{"host": "https://id.example.com/", "pins": ["\#(Self.a)", "\#(Self.b)"]}]"#, "not a host name"),
            (#"[{"host": "", "pins": ["\#(Self.a)", "\#(Self.b)"]}]"#, "not a host name"),
            (#"[{"host": "a.example", "pins": ["\#(Self.a)", "\#(Self.b)"]}, {"host": "A.example", "pins": ["\#(Self.a)", "\#(Self.b)"]}]"#, "twice"),
        ]
        for (pinning, expected) in refusals {
            let text = #"{"issuer": "https://id.example.com", "client_id": "app", "pinning": \#(pinning)}"#
            let decoded = try JSONDecoder().decode(SesameConfiguration.self, from: Data(text.utf8))
            #expect(throws: SesameError.self) { try decoded.validate() }
            do { try decoded.validate() } catch { #expect(error.description.contains(expected), "\(error)") }
        }
        for (pinning, expected) in [
            (#"[{"host": "a.example", "pins": ["md5/x", "\#(Self.b)"]}]"#, "sha256/"),
            (#"[{"host": "a.example", "pins": ["\#(Self.a)", "\#(Self.b)"], "expires": "next year"}]"#, "expires"),
        ] {
            let text = #"{"issuer": "https://id.example.com", "client_id": "app", "pinning": \#(pinning)}"#
            #expect(throws: (any Error).self) { try JSONDecoder().decode(SesameConfiguration.self, from: Data(text.utf8)) }
            do { _ = try JSONDecoder().decode(SesameConfiguration.self, from: Data(text.utf8)) } catch {
                #expect(SesameConfiguration.describe(error).contains("pinning"), "\(SesameConfiguration.describe(error))")
                #expect("\(error)".contains(expected), "\(error)")
            }
        }
    }

    @Test("which entry decides: exact host before a parent's include_subdomains, case and a trailing dot ignored, expired pins none")
    func entries() throws {
        let now = Date()
        let pinning = CertificatePinning(hosts: [
            PinnedHost(host: "example.com", pins: [try PublicKeyPin(Self.a), try PublicKeyPin(Self.b)], includeSubdomains: true),
            PinnedHost(host: "api.example.com", pins: [try PublicKeyPin(Self.b), try PublicKeyPin(Self.c)]),
            PinnedHost(host: "old.example.net", pins: [try PublicKeyPin(Self.a), try PublicKeyPin(Self.c)], expires: now.addingTimeInterval(-1)),
            PinnedHost(host: "flat.example.org", pins: [try PublicKeyPin(Self.a), try PublicKeyPin(Self.c)]),
        ])
        #expect(pinning.entry(for: "API.Example.com.", at: now)?.host == "api.example.com")
        #expect(pinning.entry(for: "id.example.com", at: now)?.host == "example.com")
        #expect(pinning.entry(for: "example.com", at: now)?.host == "example.com")
        #expect(pinning.entry(for: "badexample.com", at: now) == nil, "a suffix that is not a subdomain")
        #expect(pinning.entry(for: "old.example.net", at: now) == nil, "expired: the system alone decides")
        #expect(pinning.entry(for: "www.flat.example.org", at: now) == nil, "subdomains only when included")
        #expect(pinning.check(host: "other.test", chain: [], at: now) == .notPinned)
    }

    @Test("the check: a pinned leaf or CA key matches; other keys are a mismatch naming the presented pins; pins agree with openssl")
    func check() async throws {
        guard ToolRun.available("openssl") || ProcessInfo.processInfo.environment["CI"] == "true" else { return }
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let leaf = try certificates.der(certificates.certificateFile)
        let ca = try certificates.der(certificates.caFile)
        let leafPin = try PublicKeyPin(certificateDER: leaf)
        let caPin = try PublicKeyPin(certificateDER: ca)
        // The pin as the docs tell operators to compute it.
        let openssl = try await ToolRun.run(
            "sh", ["-c", "openssl x509 -in '\(certificates.certificateFile)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"],
            in: certificates.directory)
        #expect(openssl.status == 0 && leafPin.description == "sha256/" + openssl.output.trimmingCharacters(in: .whitespacesAndNewlines))

        let now = Date()
        let backup = try PublicKeyPin(Self.a)
        func pinning(_ pins: [PublicKeyPin]) -> CertificatePinning {
            CertificatePinning(hosts: [PinnedHost(host: "127.0.0.1", pins: pins)])
        }
        #expect(pinning([leafPin, backup]).check(host: "127.0.0.1", chain: [leaf, ca], at: now) == .matched)
        #expect(pinning([backup, caPin]).check(host: "127.0.0.1", chain: [leaf, ca], at: now) == .matched, "the CA's key")
        let refused = pinning([backup, try PublicKeyPin(Self.b)]).check(host: "127.0.0.1", chain: [leaf, ca], at: now)
        #expect(refused == .mismatch(CertificatePinMismatch(host: "127.0.0.1", presented: [leafPin, caPin])))
        // Garbage in the chain is no key, not a crash.
        #expect(pinning([leafPin, backup]).check(host: "127.0.0.1", chain: [Data([0x30, 0x82, 0xff, 0xff])], at: now) != .matched)
        let error = CertificatePinMismatch(host: "127.0.0.1", presented: [leafPin]).error
        #expect(error.code == .certificatePinMismatch && error.category == .misconfigured)
        #expect(error.pinMismatch?.presented == [leafPin] && error.description.contains("nothing was sent"))
    }

    @Test("a pinned host through a transport that does not enforce the pins, or over plain http, is refused before any request")
    func failClosed() async throws {
        let provider = FakeProvider(clock: SystemClock())
        var configuration = SesameConfiguration(issuer: URL(string: provider.issuer)!, clientID: provider.clientID)
        configuration.pinning = CertificatePinning(hosts: [
            PinnedHost(host: "id.test", pins: [try PublicKeyPin(Self.a), try PublicKeyPin(Self.b)]),
        ])
        let client = SesameClient(configuration: configuration, store: InMemoryCredentialStore(), transport: provider)
        await #expect(throws: SesameError.self) { _ = try await client.metadata() }
        do { _ = try await client.metadata() } catch {
            #expect(error.code == .invalidConfiguration && error.description.contains("does not enforce"), "\(error)")
        }
        #expect(provider.with { $0.requests }.isEmpty, "nothing reached the transport")

        // The default transport: on Linux URLSession has no trust hook, so it refuses too.
        #if canImport(FoundationNetworking)
            let defaulted = SesameClient(configuration: configuration, store: InMemoryCredentialStore())
            do {
                _ = try await defaulted.metadata()
                Issue.record("a pinned host was reached through URLSession on Linux")
            } catch {
                #expect(error.code == .invalidConfiguration && error.description.contains("NIOTransport"), "\(error)")
            }
        #endif

        // A transport that claims the pins still gets no plain-http request for a pinned host.
        var loopback = configuration
        loopback.issuer = URL(string: "http://127.0.0.1:9")!
        loopback.pinning = CertificatePinning(hosts: [
            PinnedHost(host: "127.0.0.1", pins: [try PublicKeyPin(Self.a), try PublicKeyPin(Self.b)]),
        ])
        let claiming = MismatchTransport(pinning: loopback.pinning)
        let plain = SesameClient(configuration: loopback, store: InMemoryCredentialStore(), transport: claiming)
        do {
            _ = try await plain.metadata()
            Issue.record("plain http to a pinned host")
        } catch {
            #expect(error.code == .invalidConfiguration && error.description.contains("plain http"), "\(error)")
        }
        #expect(claiming.sent.withLock { $0 } == 0)
    }

    @Test("a mismatch from the transport: thrown as certificate_pin_mismatch, reported to analytics with the host and hashes, not retried")
    func mismatchReported() async throws {
        var configuration = SesameConfiguration(issuer: URL(string: "https://id.test")!, clientID: "app")
        configuration.pinning = CertificatePinning(hosts: [
            PinnedHost(host: "id.test", pins: [try PublicKeyPin(Self.a), try PublicKeyPin(Self.b)]),
        ])
        let transport = MismatchTransport(pinning: configuration.pinning)
        let client = SesameClient(configuration: configuration, store: InMemoryCredentialStore(), transport: transport)
        let analytics = RecordingAnalytics()
        client.setAnalytics(analytics)
        do {
            _ = try await client.metadata()
            Issue.record("a mismatch was not thrown")
        } catch {
            #expect(error.code == .certificatePinMismatch)
            #expect(error.pinMismatch?.host == "id.test")
        }
        #expect(transport.sent.withLock { $0 } == 1, "not retried")
        let events = analytics.events.withLock { $0 }
        #expect(events.map(\.name) == [.certificatePinMismatch])
        #expect(events.first?.attributes["host"] == "id.test")
        #expect(events.first?.attributes["presented_pins"] == Self.c)
        #expect(events.first?.attributes["client_id"] == "app")
    }
}

/// Claims to enforce `pinning`, and refuses every handshake as a mismatch with the key `c`.
final class MismatchTransport: HTTPTransport {
    let certificatePinning: CertificatePinning?
    let sent = LockedState(0)

    init(pinning: CertificatePinning) { certificatePinning = pinning }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        sent.withLock { $0 += 1 }
        throw CertificatePinMismatch(host: request.url?.host ?? "", presented: [try PublicKeyPin(CertificatePinningTests.c)]).error
    }
}
