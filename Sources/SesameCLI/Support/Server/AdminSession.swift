import Foundation
import Logging
import SesameProvider
import SesameServer

/// Opens the server's data directory for one administrative command and always closes it.
enum AdminSession {
    /// `hasher`: how a password set by the command is hashed (`sesame user add --scrypt-cost`).
    static func with<Result>(
        _ dataDir: DataDirOption, hasher: any PasswordHasher = ScryptPasswordHasher.interactive,
        _ body: (ServerAdmin) async throws -> Result
    ) async throws -> Result {
        let logger = CLILogging.logger(label: "sesame.admin", level: .warning)
        let admin = try await ServerAdmin.open(
            dataDirectory: DataDirectory(url: dataDir.url), database: try dataDir.storeLocation(), logger: logger,
            hasher: hasher)
        do {
            let result = try await body(admin)
            try await admin.close()
            return result
        } catch {
            try? await admin.close()
            throw error
        }
    }
}
