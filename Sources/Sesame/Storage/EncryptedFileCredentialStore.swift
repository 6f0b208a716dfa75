import Crypto
import Foundation

/// A ``CredentialStore`` for Linux and desktop apps: one AES-GCM-encrypted file per record.
///
/// - Records live in `directory` (created with mode `0700`), one file per key
///   (`CredentialFileName`), each sealed with AES-256-GCM in the versioned
///   `CredentialFileFormat`; the record's key name is authenticated, so a renamed file fails.
/// - Writes are atomic and durable: temporary file, `fsync`, `rename`, `fsync` of the directory.
///   A crash leaves the old record or the new one, never a torn one.
/// - A record that does not decode (another key, tampering, truncation, an unknown format version)
///   is deleted and reported as ``CredentialStoreError/recordRemoved(key:reason:)``; the app
///   keeps running and the user signs in again.
/// - The key is read once, when the store is created; record contents are never logged.
///
/// Several store instances, and several processes, may share a directory: each replace is a
/// single `rename`, so the last writer wins.
public actor EncryptedFileCredentialStore: CredentialStore {
    /// Where the 256-bit AES key comes from.
    public enum KeySource: Sendable {
        /// A key file of 32 random bytes, created with mode `0600` if missing. A file that other
        /// users can read is refused.
        case keyFile(URL)
        /// A key the app supplies (for example from a platform secret service). Must be 256 bits.
        case key(SymmetricKey)
    }

    /// Temporary files older than this are leftovers of a crash and are deleted when a store is
    /// created. Younger ones may belong to a write in progress in another process.
    static let staleTemporaryFileAge: TimeInterval = 60

    /// The directory holding the record files.
    public nonisolated let directory: URL
    private let key: SymmetricKey

    /// Opens (creating if needed) the store in `directory`.
    ///
    /// - Throws: ``CredentialStoreError/unavailable(_:)`` when the directory cannot be created or
    ///   the key cannot be read or created; the message says what to fix.
    public init(directory: URL, keySource: KeySource) throws(CredentialStoreError) {
        let key: SymmetricKey
        switch keySource {
        case .keyFile(let url):
            key = try FileKey.loadOrCreate(at: url)
        case .key(let supplied):
            guard supplied.bitCount == 256 else {
                throw .unavailable("the supplied key has \(supplied.bitCount) bits; supply a 256-bit SymmetricKey")
            }
            key = supplied
        }
        try CredentialFileIO.ensureDirectory(directory)
        self.directory = directory
        self.key = key
        Self.removeStaleTemporaryFiles(in: directory, olderThan: Self.staleTemporaryFileAge)
    }

    /// The store at the platform's per-user data location, with its key file beside it:
    ///
    /// - Linux and other Unix: `$XDG_DATA_HOME/<app>/credentials` (default
    ///   `~/.local/share/<app>/credentials`) and `…/<app>/credentials.key`
    ///   (XDG Base Directory Specification).
    /// - Apple platforms: `~/Library/Application Support/<app>/credentials` and
    ///   `…/<app>/credentials.key`.
    public static func `default`(applicationName: String) throws(CredentialStoreError) -> EncryptedFileCredentialStore {
        let base = try applicationDirectory(applicationName: applicationName)
        return try EncryptedFileCredentialStore(
            directory: base.appendingPathComponent("credentials", isDirectory: true),
            keySource: .keyFile(base.appendingPathComponent("credentials.key"))
        )
    }

    // MARK: CredentialStore

    /// Decrypts the record's file; `nil` when there is none. A file that does not open with this key
    /// is deleted and reported as ``CredentialStoreError/recordRemoved(key:reason:)``.
    public func load(_ recordKey: String) async throws(CredentialStoreError) -> Data? {
        let fileName = try CredentialFileName.fileName(for: recordKey)
        let path = directory.appendingPathComponent(fileName).path
        guard let file = try CredentialFileIO.read(path) else { return nil }
        switch CredentialFileFormat.open(file, name: recordKey, using: key) {
        case .success(let data):
            return data
        case .failure(let failure):
            try CredentialFileIO.remove(path)
            throw .recordRemoved(key: recordKey, reason: failure.description)
        }
    }

    /// Seals `data` and atomically replaces the record's file (temporary file, `fsync`, `rename`).
    public func save(_ data: Data, for recordKey: String) async throws(CredentialStoreError) {
        let fileName = try CredentialFileName.fileName(for: recordKey)
        let sealed = try CredentialFileFormat.seal(data, name: recordKey, using: key)
        try CredentialFileIO.replaceAtomically(directory: directory, fileName: fileName, data: sealed)
    }

    /// Deletes the record's file, if any, and syncs the directory so the removal survives a crash.
    public func remove(_ recordKey: String) async throws(CredentialStoreError) {
        let fileName = try CredentialFileName.fileName(for: recordKey)
        try CredentialFileIO.remove(directory.appendingPathComponent(fileName).path)
        try CredentialFileIO.syncDirectory(directory)
    }

    /// The keys of the record files in `directory`; temporary and foreign files are skipped.
    public func keys() async throws(CredentialStoreError) -> [String] {
        try CredentialFileIO.list(directory).compactMap(CredentialFileName.key(forFileName:))
    }

    // MARK: Helpers

    /// `<data home>/<applicationName>`, see ``default(applicationName:)``.
    static func applicationDirectory(applicationName: String) throws(CredentialStoreError) -> URL {
        guard !applicationName.isEmpty, applicationName != ".", applicationName != "..",
            !applicationName.contains("/"), !applicationName.contains("\0")
        else {
            throw .unavailable("'\(applicationName)' is not a usable application name; use a plain name such as \"com.example.app\"")
        }
        #if canImport(Darwin)
        guard let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first else {
            throw .unavailable("the Application Support directory is not available")
        }
        return support.appendingPathComponent(applicationName, isDirectory: true)
        #else
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent(applicationName, isDirectory: true)
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw .unavailable("neither XDG_DATA_HOME nor HOME is set to an absolute path; set one of them")
        }
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/share", isDirectory: true)
            .appendingPathComponent(applicationName, isDirectory: true)
        #endif
    }

    /// Deletes temporary files left by a crash. Best effort: failure only leaves junk that
    /// ``keys()`` ignores anyway.
    static func removeStaleTemporaryFiles(in directory: URL, olderThan age: TimeInterval) {
        guard let names = try? CredentialFileIO.list(directory) else { return }
        let cutoff = Date().addingTimeInterval(-age)
        for name in names where CredentialFileName.isTemporary(name) {
            let url = directory.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate]) as? Date
            if let modified, modified > cutoff { continue }
            try? CredentialFileIO.remove(url.path)
        }
    }
}
