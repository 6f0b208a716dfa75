/// Polls `condition` every 100 ms for up to 10 s (the suite may run on a loaded machine);
/// `true` as soon as it holds, `false` if it never did.
public func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
    for _ in 0..<100 {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(100))
    }
    return false
}
