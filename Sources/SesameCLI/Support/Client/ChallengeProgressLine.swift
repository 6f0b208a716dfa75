import Foundation
import Sesame

/// `sesame login --password`'s one-line progress while the SDK solves the server's challenge
/// (``SesameEvent/challenge(_:)``), rewritten in place on stderr when it is a terminal, and a
/// line per stage otherwise.
enum ChallengeProgressLine {
    /// Follows `client`'s events until the returned task is cancelled.
    static func follow(_ client: SesameClient) -> Task<Void, Never> {
        let events = client.events()
        return Task {
            let terminal = isatty(STDERR_FILENO) == 1
            for await event in events {
                guard case .challenge(let progress) = event else { continue }
                switch progress {
                case .started(let kind, let difficulty):
                    write(
                        kind == .clearPass
                            ? "Security check (clear pass) ..."
                            : "Security check: solving a \(difficulty)-bit proof of work on \(ProcessInfo.processInfo.activeProcessorCount) cores ...",
                        terminal: terminal, final: !terminal)
                case .progress(let hashes, let expected):
                    guard terminal, expected > 0 else { continue }
                    let percent = min(99, 100 * hashes / expected)
                    write("Security check: \(hashes.formatted()) hashes (~\(percent)% of the average) ...", terminal: true, final: false)
                case .solved(_, let seconds):
                    write("Security check solved in \(String(format: "%.2f", seconds)) s.", terminal: terminal, final: true)
                }
            }
        }
    }

    private static func write(_ text: String, terminal: Bool, final: Bool) {
        let line = terminal ? "\r\u{1B}[2K" + text + (final ? "\n" : "") : text + "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
