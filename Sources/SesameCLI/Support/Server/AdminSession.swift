import Foundation
import Logging
import SesameServer

/// Opens the server's data directory for one administrative command and always closes it.
enum AdminSession {
    static func with<Result>(
        _ dataDir: DataDirOption, _ body: (ServerAdmin) async throws -> Result
    ) async throws -> Result {
        let logger = CLILogging.logger(label: "sesame.admin", level: .warning)
        let admin = try await ServerAdmin.open(
            dataDirectory: DataDirectory(url: dataDir.url), database: try dataDir.storeLocation(), logger: logger)
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
