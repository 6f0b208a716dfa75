import Foundation
import SesameStore
import StoreTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue #28 §7: the SQLite files are readable by their owner only, whatever the data
/// directory's mode and the process's umask.
@Suite("The database files are 0600")
struct OwnerOnlyFilesTests {
    static func mode(_ path: String) -> mode_t {
        var status = stat()
        stat(path, &status)
        return status.st_mode & 0o777
    }

    @Test("in a 0755 directory a new database and its WAL are 0600; an old 0644 database is narrowed at open")
    func privateFiles() async throws {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        chmod(sandbox.directory.path, 0o755)
        // The process umask is left as it is (022 on CI, where SQLite alone would make 0644):
        // changing it would race the other suites' files.
        let store = try await sandbox.open()
        try await store.insertRefreshToken(StoreSamples.refreshToken(expiresAt: Date().addingTimeInterval(3600)))
        let path = sandbox.databaseURL.path
        #expect(Self.mode(path) == 0o600)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            #expect(Self.mode(path + suffix) == 0o600, "\(suffix)")
        }
        #expect(OwnerOnlyFiles.isOpenToOthers(directory: sandbox.directory))
        try await store.close()

        chmod(path, 0o644)
        let reopened = try await sandbox.open()
        #expect(Self.mode(path) == 0o600)
        try await reopened.close()
        chmod(sandbox.directory.path, 0o700)
        #expect(!OwnerOnlyFiles.isOpenToOthers(directory: sandbox.directory))
    }
}
