import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX file operations behind ``EncryptedFileCredentialStore``: exact `errno` handling,
/// `0600`/`0700` modes set with `fchmod`/`chmod` (umask-proof), and the write-fsync-rename-fsync
/// sequence that makes a replace atomic and durable.
enum CredentialFileIO {
    /// The current `errno` as text.
    static func lastError() -> String {
        String(cString: strerror(errno))
    }

    /// Creates `directory` (and its parents) if missing; the last component gets mode `0700`.
    static func ensureDirectory(_ directory: URL) throws(CredentialStoreError) {
        let path = directory.path
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw .unavailable("\(path) exists but is not a directory; move it away or choose another location")
            }
            return
        }
        let parent = directory.deletingLastPathComponent()
        if parent.path != path {
            do {
                try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            } catch {
                throw .unavailable("cannot create \(parent.path): \(error.localizedDescription)")
            }
        }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw .unavailable("cannot create \(path): \(lastError()); check the permissions of its parent")
        }
        _ = chmod(path, 0o700)
    }

    /// The whole file, or `nil` when it does not exist.
    static func read(_ path: String) throws(CredentialStoreError) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .unavailable("cannot read \(path): \(lastError())")
        }
        defer { close(fd) }
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glue.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unavailable("cannot read \(path): \(lastError())")
            }
            if count == 0 { return result }
            result.append(contentsOf: buffer[0..<count])
        }
    }

    /// Writes all of `data` to `fd`.
    static func writeAll(_ fd: Int32, _ data: Data, path: String) throws(CredentialStoreError) {
        var offset = 0
        let bytes = [UInt8](data)
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glue.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .unavailable("cannot write \(path): \(lastError()); is the disk full?")
            }
            offset += written
        }
    }

    /// Creates `path` exclusively with mode `0600` (whatever the umask), writes `data` and
    /// fsyncs it. Throws `EEXIST` as ``CreateFailure/exists``.
    static func createExclusive(_ path: String, data: Data) throws(CreateFailure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            if errno == EEXIST { throw .exists }
            throw .failed(.unavailable("cannot create \(path): \(lastError()); check the directory permissions"))
        }
        var closed = false
        defer { if !closed { close(fd) } }
        do throws(CredentialStoreError) {
            guard fchmod(fd, 0o600) == 0 else {
                throw .unavailable("cannot set mode 0600 on \(path): \(lastError())")
            }
            try writeAll(fd, data, path: path)
            guard flush(fd) else {
                throw .unavailable("cannot flush \(path) to disk: \(lastError())")
            }
            closed = true
            guard close(fd) == 0 else {
                throw .unavailable("cannot close \(path): \(lastError())")
            }
        } catch {
            _ = unlink(path)
            throw .failed(error)
        }
    }

    /// Flushes a file to stable storage. On Apple platforms `fsync` only reaches the drive's
    /// cache; `F_FULLFSYNC` reaches the medium (falling back to `fsync` where unsupported).
    static func flush(_ fd: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return true }
        #endif
        return fsync(fd) == 0
    }

    enum CreateFailure: Error {
        case exists
        case failed(CredentialStoreError)
    }

    /// Atomically replaces `directory/fileName` with `data`: write a temporary file in the same
    /// directory, fsync it, rename it over the target, fsync the directory. A crash at any point
    /// leaves either the old or the new record, never a mix.
    static func replaceAtomically(directory: URL, fileName: String, data: Data) throws(CredentialStoreError) {
        let target = directory.appendingPathComponent(fileName).path
        let temporary = directory.appendingPathComponent(CredentialFileName.temporaryName(for: fileName)).path
        do {
            try createExclusive(temporary, data: data)
        } catch {
            switch error {
            case .exists: throw .unavailable("temporary file name collision in \(directory.path); retry")
            case .failed(let failure): throw failure
            }
        }
        guard rename(temporary, target) == 0 else {
            let reason = lastError()
            _ = unlink(temporary)
            throw .unavailable("cannot replace \(target): \(reason)")
        }
        try syncDirectory(directory)
    }

    /// Fsyncs a directory so a rename or unlink in it survives a power loss.
    static func syncDirectory(_ directory: URL) throws(CredentialStoreError) {
        let fd = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw .unavailable("cannot open \(directory.path) to flush it: \(lastError())")
        }
        defer { close(fd) }
        if fsync(fd) != 0, errno != EINVAL {
            throw .unavailable("cannot flush \(directory.path) to disk: \(lastError())")
        }
    }

    /// Deletes `path`; a missing file is not an error.
    static func remove(_ path: String) throws(CredentialStoreError) {
        if unlink(path) != 0, errno != ENOENT {
            throw .unavailable("cannot delete \(path): \(lastError())")
        }
    }

    /// The names in `directory`.
    static func list(_ directory: URL) throws(CredentialStoreError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .unavailable("cannot list \(directory.path): \(error.localizedDescription)")
        }
    }
}

/// Unambiguous names for the C `read`/`write` calls (shadowed inside types that declare their
/// own `read`/`write`).
private enum Glue {
    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }

    static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.write(fd, buffer, count)
        #else
        Darwin.write(fd, buffer, count)
        #endif
    }
}
