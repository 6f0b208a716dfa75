import Foundation
import Logging
import NIOCore
import SQLKit
import SesameProtocol
import Testing
@testable import SesameStore

/// ``StatementDeadline``: a PostgreSQL statement that never ends (as a few did inside
/// PostgresNIO after a database restart in issue #50's soak) ends its request with
/// `unavailable` instead of holding it, and the server's shutdown, forever.
@Suite("PostgreSQL statement deadline")
struct StatementDeadlineTests {
    let deadline = StatementDeadline(lease: .milliseconds(100), statement: .milliseconds(300))

    /// A statement that ignores cancellation and never ends until `release` resumes it.
    final class Stuck: Sendable {
        private let waiting = LockedState<CheckedContinuation<Void, Never>?>(nil)
        func wait() async { await withCheckedContinuation { continuation in waiting.withLock { $0 = continuation } } }
        func release() { waiting.withLock { $0 }?.resume() }
    }

    @Test("a statement that ends returns its result at once, and its error as it is")
    func endsNormally() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        try await deadline.run { leased in leased() }
        #expect(clock.now - start < .milliseconds(100))
        await #expect(throws: StoreError.conflict(field: "x")) {
            try await deadline.run { leased in
                leased()
                throw StoreError.conflict(field: "x")
            }
        }
    }

    @Test("no connection within the lease time: unavailable, though the wait for one never ends")
    func noConnection() async throws {
        let stuck = Stuck()
        defer { stuck.release() }
        let error = await #expect(throws: StoreError.self) {
            try await deadline.run { _ in await stuck.wait() }
        }
        #expect("\(String(describing: error))".contains("no PostgreSQL connection"))
    }

    @Test("a statement that never ends: unavailable after the statement time, and the caller is free")
    func statementNeverEnds() async throws {
        let stuck = Stuck()
        defer { stuck.release() }
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: StoreError.self) {
            try await deadline.run { leased in
                leased()
                await stuck.wait()
            }
        }
        #expect(clock.now - start >= .milliseconds(300))
        #expect("\(String(describing: error))".contains("did not finish"))
    }

    @Test("20 statements at once, half of them stuck: every caller returns, each with its own outcome")
    func manyAtOnce() async throws {
        let stuck = Stuck()
        defer { stuck.release() }
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask {
                    do {
                        try await deadline.run { leased in
                            leased()
                            if index % 2 == 1 { await stuck.wait() }
                        }
                        return true
                    } catch {
                        return false
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 10)
        #expect(outcomes.filter { !$0 }.count == 10)
    }

    /// A session's connection (the purge's, the migrations'), whose statements either end at
    /// once or never (``Stuck``).
    struct SessionConnection: SQLDatabase {
        let stuck: Stuck?
        let statements = LockedState(0)
        var logger: Logger { Logger(label: "sesame.tests") }
        var eventLoop: any EventLoop { fatalError("the deadline runs statements with async/await only") }
        var dialect: any SQLDialect { PlainDialect() }
        func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
            fatalError("the deadline runs statements with async/await only")
        }
        func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
            statements.withLock { $0 += 1 }
            await stuck?.wait()
        }
    }

    struct PlainDialect: SQLDialect {
        var name: String { "plain" }
        var identifierQuote: any SQLExpression { SQLRaw("\"") }
        var supportsAutoIncrement: Bool { false }
        var autoIncrementClause: any SQLExpression { SQLRaw("") }
        func bindPlaceholder(at position: Int) -> any SQLExpression { SQLRaw("$\(position)") }
        func literalBoolean(_ value: Bool) -> any SQLExpression { SQLRaw(value ? "true" : "false") }
    }

    @Test("a session's statement that never ends: unavailable after the statement time, so its lock is let go")
    func sessionStatementNeverEnds() async throws {
        let ends = SessionConnection(stuck: nil)
        let session = DeadlineSessionDatabase(base: ends, statementTimeout: .milliseconds(300))
        try await session.execute(sql: SQLRaw("DELETE FROM codes"), { _ in })
        try await session.execute(sql: SQLRaw("DELETE FROM codes"), { _ in })
        #expect(ends.statements.withLock { $0 } == 2, "statements that end pass through, without waiting for a lease")

        let stuck = Stuck()
        defer { stuck.release() }
        let hung = DeadlineSessionDatabase(base: SessionConnection(stuck: stuck), statementTimeout: .milliseconds(300))
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: StoreError.self) {
            try await hung.execute(sql: SQLRaw("DELETE FROM codes"), { _ in })
        }
        #expect(clock.now - start >= .milliseconds(300))
        #expect("\(String(describing: error))".contains("did not finish"))
    }

    /// A connection that closes 200 ms after it is made, the way a pooled one does when
    /// PostgreSQL restarts under a statement.
    final class ClosingConnection: Sendable {
        static let delay: Duration = .milliseconds(200)
        private let closed = LockedState(false)
        let made = ContinuousClock.now
        init() { Task { [closed] in try? await Task.sleep(for: Self.delay); closed.withLock { $0 = true } } }
        var isClosed: Bool { closed.withLock { $0 } }

        /// Whether `error` came when the connection closed: after it did, within a few checks.
        func endedAtClose(_ error: StoreError?) -> Bool {
            let elapsed = ContinuousClock.now - made
            return elapsed >= Self.delay && elapsed < StatementDeadline.closedCheck * 3
                && "\(String(describing: error))".contains("connection closed before the statement was answered")
        }
    }

    @Test("a statement whose connection closes ends within a check of it, long before the deadline")
    func connectionCloses() async throws {
        let stuck = Stuck()
        defer { stuck.release() }
        let connection = ClosingConnection()
        let error = await #expect(throws: StoreError.self) {
            try await StatementDeadline(lease: .seconds(30), statement: .seconds(60)).run { leased in
                leased(closed: { connection.isClosed })
                await stuck.wait()
            }
        }
        #expect(connection.endedAtClose(error))
    }

    @Test("a session's statement on a connection that closes ends within a check of it")
    func sessionConnectionCloses() async throws {
        let stuck = Stuck()
        defer { stuck.release() }
        let connection = ClosingConnection()
        let session = DeadlineSessionDatabase(
            base: SessionConnection(stuck: stuck), statementTimeout: .seconds(60), closed: { connection.isClosed })
        let error = await #expect(throws: StoreError.self) {
            try await session.execute(sql: SQLRaw("DELETE FROM codes"), { _ in })
        }
        #expect(connection.endedAtClose(error))
    }

    @Test("a statement on an open connection is not ended by the checks: it runs to its own end")
    func openConnectionRunsOn() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        try await StatementDeadline(lease: .seconds(5), statement: .seconds(10)).run { leased in
            leased(closed: { false })
            try await Task.sleep(for: StatementDeadline.closedCheck * 1.5)
        }
        #expect(clock.now - start >= StatementDeadline.closedCheck * 1.5)
    }
}
