import SesameStore
import Foundation
import Logging
import ServiceLifecycle

/// Picks up signing keys changed by another process (`sesame keys rotate`, or another server of
/// the deployment) within ``interval``: every tick it reads the key table (a handful of rows)
/// and reloads the key ring when a key was added, retired or removed. A rotated key is then
/// published and used for signing by every running server within a second or two, instead of
/// the key ring's 60 s refresh.
package struct KeyChangeWatcher: Service {
    package let keyRing: KeyRing
    package let interval: Duration
    package let logger: Logger

    package init(keyRing: KeyRing, interval: Duration, logger: Logger) {
        self.keyRing = keyRing
        self.interval = interval
        self.logger = logger
    }

    package func run() async {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return  // graceful shutdown or cancellation
            }
            do {
                if try await keyRing.reloadIfChanged() {
                    logger.info("signing keys changed in the store; reloaded")
                }
            } catch {
                logger.warning(
                    "could not check the signing keys; retrying", metadata: ["error": .string("\(error)")])
            }
        }
    }
}
