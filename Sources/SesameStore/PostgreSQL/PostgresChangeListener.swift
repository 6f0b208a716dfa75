import Foundation
import Logging
import PostgresNIO

/// Listens on `sesame_changes` (PostgreSQL `LISTEN`, §SQL Commands) on a connection of its
/// own, outside the pool, and hands every notification to `deliver`: how a client edited or a
/// key retired in one server process reaches the others' caches at once. When the connection
/// drops it reconnects (1 s, doubling to 30 s) and delivers ``StoreChange/everything``, since
/// notifications sent meanwhile are lost.
enum PostgresChangeListener {
    static let channel = "sesame_changes"

    static func run(
        _ configuration: PostgresConnection.Configuration, logger: Logger, deliver: @escaping @Sendable (StoreChange) -> Void
    ) async {
        var delay = 1
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
                do {
                    try await connection.listen(on: channel) { notifications in
                        delay = 1
                        deliver(.everything)
                        for try await notification in notifications {
                            if let change = StoreChange(payload: notification.payload) { deliver(change) }
                        }
                    }
                } catch {
                    if !Task.isCancelled { logger.warning("lost the change notifications; reconnecting", metadata: ["error": "\(error)"]) }
                }
                try? await connection.close()
            } catch {
                if !Task.isCancelled {
                    logger.warning("cannot listen for changes; retrying", metadata: ["error": "\(PostgresBackend.describe(error))"])
                }
            }
            try? await Task.sleep(for: .seconds(delay))
            delay = min(30, delay * 2)
        }
    }
}
