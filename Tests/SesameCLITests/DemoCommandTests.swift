import Foundation
import Testing

@Suite("sesame demo")
struct DemoCommandTests {
    @Test("walks every step against a throwaway server and exits 0")
    func demoPasses() async throws {
        let result = try await CLIProcess.run(["demo"])
        try #require(result.status == 0, "\(result)")
        for step in 1...15 {
            #expect(result.stdout.contains("[\(step)/15] "), "step \(step) missing:\n\(result.stdout)")
        }
        #expect(result.stdout.contains("All 15 steps passed."))
        // Single sign-on: the second app joins, logout everywhere ends it.
        #expect(result.stdout.contains("offers \"Continue as Alice Example\""))
        #expect(result.stdout.contains("signedOut(.revokedElsewhere)"))
        // Native sign-in with an emailed code: the second factor is shown, the code is not.
        #expect(result.stdout.contains("mfa_methods: email"))
        #expect(result.stdout.contains("acr       urn:sesame:acr:mfa"))
        #expect(result.stdout.contains("mfa_code=<redacted>"))
        // The login hops are shown, the code and state are not.
        #expect(result.stdout.contains("POST "))
        #expect(result.stdout.contains("code=<redacted>"))
        #expect(!result.stdout.contains("password=") || result.stdout.contains("password=<hidden>"))
        // A TV shows its user code on purpose (RFC 8628 §3.3); codes of sign-ins are secret.
        #expect(result.stdout.contains("the TV is signed in as alice@example.com"))
        for line in result.stdout.split(separator: "\n") where line.contains("code=") && !line.contains("user_code=") {
            #expect(line.contains("code=<redacted>"), "unredacted: \(line)")
        }
        // The temporary data directory is gone.
        let dataLine = try #require(
            result.stdout.split(separator: "\n").first { $0.contains("Data directory (temporary): ") })
        let path = String(dataLine.split(separator: ": ", maxSplits: 1)[1])
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
