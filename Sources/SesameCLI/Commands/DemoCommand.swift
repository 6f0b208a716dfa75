import ArgumentParser
import Foundation
import Logging
import Sesame
import SesameProtocol
import SesameServer

/// `sesame demo`: the first five minutes. Starts a throwaway server on a free
/// loopback port and walks the SDK through a whole session, printing each step. Exits 0 only if
/// every step worked. No token, code or password is ever printed: lengths and claims instead.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start a throwaway server and walk through sign-in, tokens, refresh, accounts, logout and native MFA sign-in.",
        discussion: """
            Uses a temporary data directory (removed at the end) and a free port on 127.0.0.1. \
            The login page is driven over HTTP the way a person would fill it in.
            """)

    @Flag(name: .customLong("keep-data"), help: "Keep the temporary data directory and print its path.")
    var keepData = false

    func run() async throws {
        try await reportingErrors {
            let dataURL = FileManager.default.temporaryDirectory
                .appendingPathComponent("sesame-demo-\(UUID().uuidString.lowercased())")
            let steps = DemoSteps(total: DemoWalkthrough.stepCount)
            var server: RunningServer?
            do {
                let started = try await steps.run("Starting a Sesame server on a free loopback port") {
                    try await DemoWalkthrough.startServer(dataDirectory: dataURL, steps: steps)
                }
                server = started
                try await DemoWalkthrough(server: started, steps: steps).run()
                try await started.shutdown()
                server = nil
                cleanUp(dataURL)
                Terminal.out("All \(steps.total) steps passed.")
            } catch {
                if let server { try? await server.shutdown() }
                cleanUp(dataURL)
                if let failure = error as? DemoFailure {
                    Terminal.out("✗ Step \(failure.step)/\(failure.total) failed: \(failure.title)")
                    throw failure.cliError
                }
                throw error
            }
        }
    }

    private func cleanUp(_ url: URL) {
        if keepData {
            Terminal.out("Data directory kept at \(url.path)")
        } else {
            try? FileManager.default.removeItem(at: url)
        }
    }
}
