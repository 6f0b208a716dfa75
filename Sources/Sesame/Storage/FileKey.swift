import Crypto
import Foundation
import SesameProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The 256-bit AES key of an ``EncryptedFileCredentialStore``, kept in a file of exactly 32 random
/// bytes with mode `0600`.
///
/// The file is created with `O_CREAT | O_EXCL` and `fchmod(0600)`, so neither a concurrent creator
/// nor the umask can weaken it. An existing file that other users can read, that belongs to
/// another user, or that has the wrong size is refused with an error that says what to do.
enum FileKey {
    static let byteCount = 32

    /// Reads the key at `url`, creating it (and its directory, mode `0700`) when missing.
    static func loadOrCreate(at url: URL) throws(CredentialStoreError) -> SymmetricKey {
        try CredentialFileIO.ensureDirectory(url.deletingLastPathComponent())
        let path = url.path
        for _ in 0..<3 {
            if let key = try load(path) { return key }
            let bytes = SecureRandom.bytes(byteCount)
            do {
                try CredentialFileIO.createExclusive(path, data: Data(bytes))
                try CredentialFileIO.syncDirectory(url.deletingLastPathComponent())
                return SymmetricKey(data: bytes)
            } catch let failure as CredentialFileIO.CreateFailure {
                switch failure {
                case .exists: continue  // another process created it first: read theirs
                case .failed(let error): throw error
                }
            } catch let error as CredentialStoreError {
                throw error
            } catch {
                throw .unavailable("cannot create the key file \(path): \(error)")
            }
        }
        throw .unavailable("the key file \(path) keeps appearing and disappearing; check what else uses it")
    }

    /// The key at `path`, `nil` if the file does not exist.
    private static func load(_ path: String) throws(CredentialStoreError) -> SymmetricKey? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .unavailable("cannot open the key file \(path): \(CredentialFileIO.lastError()); check its permissions")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw .unavailable("cannot inspect the key file \(path): \(CredentialFileIO.lastError())")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .unavailable("the key file \(path) is not a regular file; remove it and sign in again")
        }
        guard status.st_uid == geteuid() else {
            throw .unavailable(
                "the key file \(path) belongs to another user (uid \(status.st_uid)); it must belong to the user running the app"
            )
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw .unavailable(
                "the key file \(path) has mode \(String(mode, radix: 8)) and other users may read it; run `chmod 600 \(path)` (and consider signing in again, as the key may have leaked)"
            )
        }
        guard Int(status.st_size) == byteCount else {
            throw .unavailable(
                "the key file \(path) has \(status.st_size) bytes instead of \(byteCount): it is corrupted and cannot decrypt the stored credentials; delete it and the credentials directory beside it, then sign in again"
            )
        }
        var bytes = [UInt8](repeating: 0, count: byteCount)
        var offset = 0
        while offset < byteCount {
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + offset, byteCount - offset, off_t(offset))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw .unavailable("cannot read the key file \(path): \(CredentialFileIO.lastError())")
            }
            offset += count
        }
        return SymmetricKey(data: bytes)
    }
}
