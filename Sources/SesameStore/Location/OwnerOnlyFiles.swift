import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's files are readable by the server's user only (mode 0600), whatever the data
/// directory's mode or the process's umask: they hold password hashes, sealed keys, sessions,
/// pending codes and the audit log. SQLite gives its `-wal` and `-shm` files the mode of the
/// database file, so a database created 0600 keeps them 0600 too; files that already exist
/// are narrowed to 0600 at every start.
public enum OwnerOnlyFiles {
    public static let mode: mode_t = 0o600

    /// Creates the SQLite database file empty with mode 0600 when it does not exist yet (SQLite
    /// then initializes it), and narrows it and its companions to 0600 when they exist.
    public static func prepare(database url: URL) throws {
        let path = url.path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode)
        if fd >= 0 {
            close(fd)
        } else if errno != EEXIST {
            throw StoreError.unavailable(
                reason: "cannot create \(path) (\(String(cString: strerror(errno)))); check the data directory's permissions")
        }
        try narrow(database: url)
    }

    /// Sets 0600 on the database file and those of its companions that exist.
    public static func narrow(database url: URL) throws {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let path = url.path + suffix
            guard FileManager.default.fileExists(atPath: path) else { continue }
            if chmod(path, mode) != 0 {
                throw StoreError.unavailable(
                    reason: "cannot make \(path) private (\(String(cString: strerror(errno)))); run the server as the file's owner")
            }
        }
    }

    /// `true` when other users may read or enter the directory (a group or world permission
    /// bit set): the server warns at start, since such a directory shows which files exist and
    /// any file a tool created there with a loose mode.
    public static func isOpenToOthers(directory url: URL) -> Bool {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return false }
        return status.st_mode & 0o077 != 0
    }

    /// The directory's permission bits, as `0755`.
    public static func modeText(directory url: URL) -> String {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return "?" }
        return "0" + String(status.st_mode & 0o777, radix: 8)
    }
}
