import TestSupport
import Foundation
import Testing

@testable import Sesame

@Suite("Configuration")
struct ConfigurationTests {
    func write(_ json: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("sesame.json")
        try Data(json.utf8).write(to: url)
        return url
    }

    func cleanup(_ url: URL) { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }

    @Test("loads snake case JSON")

    func loadsSnakeCaseJSON() throws {
        let url = try write("""
            {"issuer": "https://id.example.com", "client_id": "com.example.app",
             "redirect_uri": "com.example.app:/oauth2redirect", "scopes": ["openid", "email"],
             "allowed_origins": ["https://api.example.com"], "leeway": 30, "refresh_ahead": 120}
            """)
        defer { cleanup(url) }
        let configuration = try SesameConfiguration.load(from: url)
        #expect(configuration.clientID == "com.example.app")
        #expect(configuration.scopes == ["openid", "email"])
        #expect(configuration.allowedOrigins == [URL(string: "https://api.example.com")!])
        #expect(configuration.leeway == 30)
        #expect(configuration.refreshAhead == 120)
        #expect(configuration.clientSecret == nil)
    }

    @Test("defaults apply")

    func defaultsApply() throws {
        let url = try write(#"{"issuer": "https://id.example.com", "client_id": "a", "redirect_uri": "a.b:/cb"}"#)
        defer { cleanup(url) }
        let configuration = try SesameConfiguration.load(from: url)
        #expect(configuration.scopes == SesameConfiguration.defaultScopes)
        #expect(configuration.leeway == 60)
        #expect(configuration.refreshAhead == 60)
    }

    @Test("a bad value names its key and, for a key of a few words, every valid one (issue #45)", arguments: [
        (#""dpop": "whenSupported""#, "dpop", "off, when_supported, required"),
        (#""pushed_authorization": "sometimes""#, "pushed_authorization", "when_required, always, never"),
        (#""log_level": "loud""#, "log_level", "off, error, warning, info, debug"),
        (#""leeway": "sixty""#, "leeway", "a number"),
        (#""scopes": 7"#, "scopes", "a string"),
    ])
    func badValueIsExplained(field: String, key: String, valid: String) throws {
        let url = try write(#"{"issuer": "https://id.example.com", "client_id": "a", "#  + field + "}")
        defer { cleanup(url) }
        do {
            _ = try SesameConfiguration.load(from: url)
            Issue.record("loaded \(field)")
        } catch {
            guard case .invalidConfiguration(let message) = error.reason else { Issue.record("unexpected \(error)"); return }
            #expect(message.contains("\"\(key)\""), "\(message)")
            #expect(message.contains(valid), "\(message)")
            #expect(!message.contains("not JSON"), "\(message)")
        }
    }

    @Test("without redirect_uri (an app that signs in on another device or natively): valid, quiet by default; browser sign-in says what is missing")
    func withoutRedirectURI() async throws {
        let url = try write(#"{"issuer": "https://id.example.com", "client_id": "tv", "log_level": "off"}"#)
        defer { cleanup(url) }
        let configuration = try SesameConfiguration.load(from: url)
        #expect(configuration.redirectURI == nil)
        #expect(configuration.logLevel == .off)
        #expect(SesameConfiguration(issuer: URL(string: "https://id.example.com")!, clientID: "tv").logLevel == .warning)
    }

    @Test("missing key is explained")

    func missingKeyIsExplained() throws {
        let url = try write(#"{"issuer": "https://id.example.com", "redirect_uri": "a.b:/cb"}"#)
        defer { cleanup(url) }
        do {
            _ = try SesameConfiguration.load(from: url)
            Issue.record("loaded without client_id")
        } catch {
            guard case .invalidConfiguration(let message) = error.reason else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(message.contains("client_id"))
        }
    }

    @Test("issuer must be HTTPS except loopback", arguments: [
        ("http://id.example.com", false), ("https://id.example.com", true),
        ("http://127.0.0.1:8080", true), ("http://[::1]:8080", true), ("http://localhost:8080", true),
        ("ftp://id.example.com", false),
    ])
    func issuerMustBeHTTPSExceptLoopback(_ issuer: String, _ valid: Bool) {
        let configuration = SesameConfiguration(
            issuer: URL(string: issuer)!, clientID: "app", redirectURI: URL(string: "a.b:/cb")!)
        let accepted = (try? configuration.validate()) != nil
        #expect(accepted == valid)
    }

    @Test("openid scope and client ID required")

    func openidScopeAndClientIDRequired() {
        let base = SesameConfiguration(
            issuer: URL(string: "https://id.example.com")!, clientID: "app", redirectURI: URL(string: "a.b:/cb")!)
        var noOpenID = base
        noOpenID.scopes = ["email"]
        #expect(throws: SesameError.self) { try noOpenID.validate() }
        var noClient = base
        noClient.clientID = " "
        #expect(throws: SesameError.self) { try noClient.validate() }
        var httpRedirect = base
        httpRedirect.redirectURI = URL(string: "http://example.com/cb")!
        #expect(throws: SesameError.self) { try httpRedirect.validate() }
    }

    @Test("redaction keeps only length")

    func redactionKeepsOnlyLength() {
        #expect(Redaction.redact("secret-token") == "<redacted:12>")
        #expect("\(Redacted("abc"))" == "<redacted:3>")
    }

    @Test("HTTP date parses")

    func httpDateParses() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.parse("yesterday") == nil)
    }

    @Test("server clock offset is learned")

    func serverClockOffsetIsLearned() {
        let offset = ServerClockOffset()
        let local = Date(timeIntervalSince1970: 784_111_777 - 120)
        offset.learn(dateHeader: "Sun, 06 Nov 1994 08:49:37 GMT", localNow: local)
        #expect(offset.seconds == 120)
        let clock = ManualClock(local)
        #expect(offset.serverNow(clock) == Date(timeIntervalSince1970: 784_111_777))
    }
}
