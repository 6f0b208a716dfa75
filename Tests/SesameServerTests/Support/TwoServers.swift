import Foundation
import SesameServer
import SesameTesting
import StoreTesting
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs the test where a PostgreSQL server is at hand (`SESAME_TEST_DATABASE_URL`), and always
    /// in CI, where a missing one is a failure: what ``withTwoServers(configure:_:)`` needs.
    static var needsPostgreSQL: Self {
        .enabled(
            if: StoreBackend.postgresURL != nil || StoreBackend.postgresRequired,
            "no PostgreSQL here (SESAME_TEST_DATABASE_URL); CI runs these")
    }
}

/// Runs `body` with a server on a fresh PostgreSQL database and its sibling: a second process
/// of the same deployment (one database, one master key). The sibling is always stopped.
func withTwoServers(
    configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: (TestServer, TestServer) async throws -> Void
) async throws {
    try await withTestServer(.postgres, configure: configure) { first in
        let second = try await first.sibling()
        do {
            try await body(first, second)
            try await second.shutdown()
        } catch {
            try? await second.shutdown()
            throw error
        }
    }
}

/// The statuses of `count` requests sent at once, alternating over `clients` (one per server
/// process): what the one-time values and counters must hold against.
func statusesAtOnce(
    _ count: Int, over clients: [HTTPTestClient], _ send: @escaping @Sendable (HTTPTestClient) async throws -> Int
) async throws -> [Int] {
    try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<count {
            let client = clients[index % clients.count]
            group.addTask { try await send(client) }
        }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
    }
}
