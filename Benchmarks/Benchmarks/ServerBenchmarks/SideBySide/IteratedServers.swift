import Synchronization

/// The servers a multi-round benchmark started in its setup and the number of the next round:
/// each round takes them with the round's number (counting the warm-up), the teardown takes them
/// back once to stop them.
final class IteratedServers<Servers: Sendable>: Sendable {
    private let state = Mutex<(servers: Servers?, iteration: Int)>((nil, 0))

    /// Keeps `servers` for the rounds, from round 0.
    func set(_ servers: Servers) { state.withLock { $0 = (servers, 0) } }

    /// The servers and the number of this round.
    func next() throws -> (Servers, Int) {
        try state.withLock { state in
            guard let servers = state.servers else { throw BenchmarkSetupError("no servers") }
            defer { state.iteration += 1 }
            return (servers, state.iteration)
        }
    }

    /// The servers, once (for the teardown); `nil` after that or when none were set.
    func take() -> Servers? {
        state.withLock { state in
            defer { state.servers = nil }
            return state.servers
        }
    }
}
