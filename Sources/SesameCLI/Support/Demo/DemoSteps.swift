import Foundation

/// Numbered step markers for `sesame demo`: `[3/8] Title`, indented details, and the failing
/// step named when one throws.
final class DemoSteps {
    let total: Int
    private(set) var current = 0
    private(set) var currentTitle = ""

    init(total: Int) { self.total = total }

    /// Runs step `current + 1`; a failure is rethrown as ``DemoFailure`` naming the step.
    func run<Result>(_ title: String, _ body: () async throws -> Result) async throws -> Result {
        current += 1
        currentTitle = title
        Terminal.out("[\(current)/\(total)] \(title)")
        do {
            return try await body()
        } catch let failure as DemoFailure {
            throw failure
        } catch {
            throw DemoFailure(step: current, total: total, title: title, underlying: CLIError.from(error))
        }
    }

    /// An indented detail line under the current step.
    func detail(_ text: String) {
        Self.detail(text)
    }

    /// The same, for `@Sendable` closures (the login driver's hop log).
    static func detail(_ text: String) {
        Terminal.out("      " + text)
    }

    /// A check that passed (`✓ text`).
    func ok(_ text: String) {
        Terminal.out("      ✓ " + text)
    }
}

/// The demo step that failed, reported as the one error line.
struct DemoFailure: Error, CustomStringConvertible {
    var step: Int
    var total: Int
    var title: String
    var underlying: CLIError

    var description: String {
        "demo step \(step)/\(total) (\(title)) failed: \(underlying.message)"
    }

    var cliError: CLIError {
        CLIError(description, hint: underlying.hint ?? "Run with SESAME_LOG_LEVEL=debug for details.")
    }
}

/// A demo expectation; throws with what was expected when it does not hold.
func demoExpect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw CLIError("expectation failed: \(message())") }
}
