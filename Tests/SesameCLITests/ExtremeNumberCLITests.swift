import Foundation
import Testing

/// Issue #28 for the CLI's own numbers: a rate-limit window or purge interval that would
/// overflow when it becomes whole seconds or a sleep deadline is refused at start with one line
/// that says the range, instead of a server that traps on its first request or first purge.
@Suite("CLI: extreme numbers in serve's options")
struct ExtremeNumberCLITests {
    @Test("--rate-limit token=1/9223372036854775807, --purge-interval 9223372036854775807 and --shutdown-timeout 1e30 are refused with the range")
    func boundedOptions() async throws {
        let temp = try TempDirectory("extreme-options")
        defer { temp.remove() }
        for (option, value, says) in [
            ("--rate-limit", "token=1/9223372036854775807", "seconds 1 to 31536000"),
            ("--rate-limit", "token=9223372036854775807/60", "requests 1 to 1000000000"),
            ("--purge-interval", "9223372036854775807", "up to a year (31536000)"),
            ("--shutdown-timeout", "1e30", "--shutdown-timeout must be a number of seconds above 0 (at most 86400)"),
            ("--shutdown-timeout", "0", "--shutdown-timeout must be a number of seconds above 0"),
        ] {
            let answer = try await CLIProcess.run(
                ["serve", "--port", "0", "--data-dir", temp.path("data"), option, value], timeout: .seconds(60))
            #expect(answer.status != 0, "\(option) \(value): \(answer)")
            #expect(answer.stderr.contains(says), "\(option) \(value): \(answer)")
        }
    }
}
