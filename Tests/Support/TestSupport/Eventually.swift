/// Polls `condition` every 100 ms for up to `limit` (10 s unless told; the suite may run on a
/// loaded machine); `true` as soon as it holds, `false` if it never did.
public func eventually(within limit: Duration = .seconds(10), _ condition: () async throws -> Bool) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while true {
        if try await condition() { return true }
        if clock.now >= deadline { return false }
        try await Task.sleep(for: .milliseconds(100))
    }
}
