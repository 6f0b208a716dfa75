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

/// The server's data directory (`--data-dir`, default `./.sesame`): one SQLite file and
/// the master key that seals signing keys at rest.
///
/// Layout:
/// - `sesame.sqlite` (+ `-wal`, `-shm`): the ``SQLIdentityStore``.
/// - `master.key`: 32 random bytes (AES-256-GCM key for ``KeySealer``), mode 0600.
public struct DataDirectory: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// Creates the directory (and parents) with mode 0700 if missing.
    public func prepare() throws {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw DataDirectoryError.notADirectory(path: url.path)
            }
            return
        }
        do {
            try fileManager.createDirectory(
                at: url, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw DataDirectoryError.cannotCreate(path: url.path, reason: "\(error)")
        }
    }

    /// `url/sesame.sqlite`.
    public var databaseURL: URL { url.appendingPathComponent("sesame.sqlite") }

    /// `url/master.key`.
    public var masterKeyURL: URL { url.appendingPathComponent("master.key") }

    /// The 256-bit master key. Created on first use with an exclusive create (`O_CREAT|O_EXCL`,
    /// mode 0600) so that two processes starting at once cannot both write one; read afterwards.
    public func masterKey() async throws -> SymmetricKey {
        try prepare()
        let path = masterKeyURL.path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if fd >= 0 {
            let bytes = SecureRandom.bytes(Self.masterKeyByteCount)
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            let synced = fsync(fd)
            close(fd)
            guard written == bytes.count, synced == 0 else {
                unlink(path)
                throw DataDirectoryError.cannotCreate(
                    path: path, reason: "could not write the master key")
            }
            return SymmetricKey(data: bytes)
        }
        guard errno == EEXIST else {
            throw DataDirectoryError.cannotCreate(
                path: path, reason: String(cString: strerror(errno)))
        }
        return try await readMasterKey(at: path)
    }

    private func readMasterKey(at path: String) async throws -> SymmetricKey {
        // Another process may have just created the file; retry briefly (up to half a second,
        // without holding a thread) until it is complete.
        var attempts = 0
        while true {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw DataDirectoryError.unreadableMasterKey(path: path)
            }
            if data.count == Self.masterKeyByteCount { return SymmetricKey(data: data) }
            if data.isEmpty, attempts < 50 {
                attempts += 1
                try await Task.sleep(for: .milliseconds(10))
                continue
            }
            throw DataDirectoryError.invalidMasterKey(path: path, byteCount: data.count)
        }
    }

    static let masterKeyByteCount = 32
}

/// Problems with the data directory. Messages say what to do.
public enum DataDirectoryError: Error, Sendable, Equatable, CustomStringConvertible {
    case notADirectory(path: String)
    case cannotCreate(path: String, reason: String)
    case unreadableMasterKey(path: String)
    case invalidMasterKey(path: String, byteCount: Int)

    public var description: String {
        switch self {
        case .notADirectory(let path):
            "\(path) exists but is not a directory; pass another --data-dir"
        case .cannotCreate(let path, let reason):
            "cannot create \(path) (\(reason)); check the permissions of the parent directory or pass another --data-dir"
        case .unreadableMasterKey(let path):
            "cannot read the master key at \(path); make it readable by the server's user (mode 0600)"
        case .invalidMasterKey(let path, let byteCount):
            "the master key at \(path) has \(byteCount) bytes instead of 32; restore it from a backup (without it the signing keys cannot be unsealed)"
        }
    }
}
