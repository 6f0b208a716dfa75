import Crypto
import Foundation
import Sesame
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh directory under the system temporary directory, removed after `body`.
private func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("sesame-store-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
}

private func mode(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return try #require(attributes[.posixPermissions] as? Int) & 0o777
}

/// The record files (not temporaries) in a store directory.
private func recordFiles(in directory: URL) throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        .filter { $0.lastPathComponent.hasSuffix(".credential") && !$0.lastPathComponent.hasPrefix(".") }
}

/// Runs `operation` and returns the `CredentialStoreError` it throws (`nil` if none); any other
/// error is recorded as a test failure.
private func storeError(_ operation: () async throws -> Void) async -> CredentialStoreError? {
    do {
        try await operation()
        return nil
    } catch let error as CredentialStoreError {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}

@Suite("EncryptedFileCredentialStore")
struct EncryptedFileCredentialStoreTests {
    private static func open(_ root: URL) throws(CredentialStoreError) -> EncryptedFileCredentialStore {
        try EncryptedFileCredentialStore(
            directory: root.appendingPathComponent("credentials"),
            keySource: .keyFile(root.appendingPathComponent("credentials.key"))
        )
    }

    @Test("a saved record reads back, also from a new store instance")
    func roundTrip() async throws {
        try await withTemporaryDirectory { root in
            let secret = Data("refresh-token-\(UUID())".utf8)
            try await Self.open(root).save(secret, for: "session.alice")
            #expect(try await Self.open(root).load("session.alice") == secret)
            // Encrypted at rest: the plaintext is not in the file.
            let file = try #require(try recordFiles(in: root.appendingPathComponent("credentials")).first)
            let bytes = try Data(contentsOf: file)
            #expect(bytes.range(of: secret) == nil)
            #expect(bytes.prefix(4) == Data("SSM".utf8) + [1])
        }
    }

    @Test("saving again replaces the record and leaves no temporary files")
    func overwrite() async throws {
        try await withTemporaryDirectory { root in
            let store = try Self.open(root)
            try await store.save(Data("old".utf8), for: "k")
            try await store.save(Data("new".utf8), for: "k")
            #expect(try await store.load("k") == Data("new".utf8))
            let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
            #expect(names.count == 1)
        }
    }

    @Test("remove deletes the record; removing a missing record is fine")
    func remove() async throws {
        try await withTemporaryDirectory { root in
            let store = try Self.open(root)
            try await store.save(Data("x".utf8), for: "k")
            try await store.remove("k")
            try await store.remove("never-saved")
            #expect(try await store.load("k") == nil)
            #expect(try await store.keys().isEmpty)
            #expect(try recordFiles(in: store.directory).isEmpty)
        }
    }

    @Test("keys() lists every key, however odd, and ignores temporary and foreign files")
    func keys() async throws {
        try await withTemporaryDirectory { root in
            let store = try Self.open(root)
            let keys: Set<String> = ["session.alice", "a/b", "..", " ", "ü∂🔑", String(repeating: "k", count: 160)]
            for key in keys { try await store.save(Data(key.utf8), for: key) }
            try Data("junk".utf8).write(to: store.directory.appendingPathComponent(".abc.credential.xyz.tmp"))
            try Data("junk".utf8).write(to: store.directory.appendingPathComponent("notes.txt"))
            #expect(Set(try await store.keys()) == keys)
            for key in keys { #expect(try await store.load(key) == Data(key.utf8)) }
        }
    }

    @Test("empty and over-long keys are refused with a clear error")
    func unusableKeys() async throws {
        try await withTemporaryDirectory { root in
            let store = try Self.open(root)
            let empty = await storeError { try await store.save(Data(), for: "") }
            guard case .unavailable(let message) = empty else {
                Issue.record("expected unavailable, got \(String(describing: empty))")
                return
            }
            #expect(message.contains("must not be empty"))
            let long = await storeError { try await store.save(Data(), for: String(repeating: "k", count: 161)) }
            guard case .unavailable(let detail) = long else {
                Issue.record("expected unavailable, got \(String(describing: long))")
                return
            }
            #expect(detail.contains("160"))
        }
    }

    @Test("a record written with another key is removed and reported")
    func wrongKey() async throws {
        try await withTemporaryDirectory { root in
            let directory = root.appendingPathComponent("credentials")
            let writer = try EncryptedFileCredentialStore(directory: directory, keySource: .key(SymmetricKey(size: .bits256)))
            try await writer.save(Data("secret".utf8), for: "k")
            let reader = try EncryptedFileCredentialStore(directory: directory, keySource: .key(SymmetricKey(size: .bits256)))
            let error = await storeError { _ = try await reader.load("k") }
            guard case .recordRemoved(let key, let reason) = error else {
                Issue.record("expected recordRemoved, got \(String(describing: error))")
                return
            }
            #expect(key == "k")
            #expect(reason.contains("another key"))
            #expect(try recordFiles(in: directory).isEmpty)
            #expect(try await reader.load("k") == nil)
        }
    }

    @Test("tampered, truncated, renamed, foreign and unknown-version files are removed and reported")
    func corruptedRecords() async throws {
        try await withTemporaryDirectory { root in
            let store = try Self.open(root)
            // Each case: corrupt the file of one key, then expect recordRemoved with a reason.
            let cases: [(key: String, reason: String, corrupt: (URL) throws -> Void)] = [
                ("tampered", "decryption failed", { url in
                    var bytes = try Data(contentsOf: url)
                    bytes[bytes.count - 20] ^= 0x01
                    try bytes.write(to: url)
                }),
                ("truncated", "truncated", { url in try Data(contentsOf: url).prefix(10).write(to: url) }),
                ("version", "unknown record format version 2", { url in
                    var bytes = try Data(contentsOf: url)
                    bytes[3] = 2
                    try bytes.write(to: url)
                }),
                ("foreign", "not a Sesame credential record", { url in try Data("{\"token\":1}".utf8).write(to: url) }),
            ]
            for testCase in cases {
                try await store.save(Data("payload".utf8), for: testCase.key)
                let url = store.directory.appendingPathComponent(try Self.fileName(testCase.key, in: store))
                try testCase.corrupt(url)
                let error = await storeError { _ = try await store.load(testCase.key) }
                guard case .recordRemoved(let key, let reason) = error else {
                    Issue.record("\(testCase.key): expected recordRemoved, got \(String(describing: error))")
                    continue
                }
                #expect(key == testCase.key)
                #expect(reason.contains(testCase.reason), "\(testCase.key): \(reason)")
                #expect(!FileManager.default.fileExists(atPath: url.path), "\(testCase.key): file still there")
            }
            // Renamed: alice's file under bob's name must not open as bob's record.
            try await store.save(Data("alice".utf8), for: "alice")
            let alice = store.directory.appendingPathComponent(try Self.fileName("alice", in: store))
            let bobName = alice.lastPathComponent.replacingOccurrences(of: "YWxpY2U", with: "Ym9i")
            try FileManager.default.moveItem(at: alice, to: store.directory.appendingPathComponent(bobName))
            #expect(try await store.keys() == ["bob"])
            let renamed = await storeError { _ = try await store.load("bob") }
            guard case .recordRemoved(let key, _) = renamed else {
                Issue.record("renamed: expected recordRemoved, got \(String(describing: renamed))")
                return
            }
            #expect(key == "bob")
            #expect(try await store.keys().isEmpty)
        }
    }

    /// The file name the store uses for `key`: the only record file after saving it alone.
    private static func fileName(_ key: String, in store: EncryptedFileCredentialStore) throws -> String {
        let encoded = Data(key.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        let name = encoded + ".credential"
        #expect(FileManager.default.fileExists(atPath: store.directory.appendingPathComponent(name).path))
        return name
    }

    @Test("the key file is created with mode 0600, 32 bytes, in a 0700 directory")
    func keyFileCreation() async throws {
        try await withTemporaryDirectory { root in
            let store = try Self.open(root)
            let keyFile = root.appendingPathComponent("credentials.key")
            #expect(try mode(of: keyFile) == 0o600)
            #expect(try Data(contentsOf: keyFile).count == 32)
            #expect(try mode(of: store.directory) == 0o700)
            try await store.save(Data("x".utf8), for: "k")
            #expect(try mode(of: try #require(try recordFiles(in: store.directory).first)) == 0o600)
            // The same key file is reused, not regenerated.
            let before = try Data(contentsOf: keyFile)
            _ = try Self.open(root)
            #expect(try Data(contentsOf: keyFile) == before)
        }
    }

    @Test("a key file other users can read is refused")
    func groupReadableKeyFileRefused() async throws {
        try await withTemporaryDirectory { root in
            let keyFile = root.appendingPathComponent("credentials.key")
            try Data(repeating: 7, count: 32).write(to: keyFile)
            #expect(chmod(keyFile.path, 0o644) == 0)
            let error = await storeError { _ = try Self.open(root) }
            guard case .unavailable(let message) = error else {
                Issue.record("expected unavailable, got \(String(describing: error))")
                return
            }
            #expect(message.contains("chmod 600"))
            #expect(message.contains("644"))
        }
    }

    @Test("a key file of the wrong size is refused with advice to sign in again")
    func corruptedKeyFileRefused() async throws {
        try await withTemporaryDirectory { root in
            let keyFile = root.appendingPathComponent("credentials.key")
            try Data(repeating: 7, count: 31).write(to: keyFile)
            #expect(chmod(keyFile.path, 0o600) == 0)
            let error = await storeError { _ = try Self.open(root) }
            guard case .unavailable(let message) = error else {
                Issue.record("expected unavailable, got \(String(describing: error))")
                return
            }
            #expect(message.contains("31 bytes"))
            #expect(message.contains("sign in again"))
        }
    }

    @Test("an app-supplied key works across instances; a key that is not 256 bits is refused")
    func suppliedKey() async throws {
        try await withTemporaryDirectory { root in
            let key = SymmetricKey(size: .bits256)
            let directory = root.appendingPathComponent("credentials")
            try await EncryptedFileCredentialStore(directory: directory, keySource: .key(key)).save(Data("v".utf8), for: "k")
            let reopened = try EncryptedFileCredentialStore(directory: directory, keySource: .key(key))
            #expect(try await reopened.load("k") == Data("v".utf8))
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("credentials.key").path))
            let error = await storeError {
                _ = try EncryptedFileCredentialStore(directory: directory, keySource: .key(SymmetricKey(size: .bits128)))
            }
            guard case .unavailable(let message) = error else {
                Issue.record("expected unavailable, got \(String(describing: error))")
                return
            }
            #expect(message.contains("256-bit"))
        }
    }

    @Test("stale temporary files are cleaned when a store opens; fresh ones are left alone")
    func staleTemporaryFilesCleaned() async throws {
        try await withTemporaryDirectory { root in
            let store = try Self.open(root)
            try await store.save(Data("v".utf8), for: "k")
            let stale = store.directory.appendingPathComponent(".azE.credential.old.tmp")
            let fresh = store.directory.appendingPathComponent(".azE.credential.new.tmp")
            try Data("partial".utf8).write(to: stale)
            try Data("partial".utf8).write(to: fresh)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -600)], ofItemAtPath: stale.path)
            let reopened = try Self.open(root)
            #expect(!FileManager.default.fileExists(atPath: stale.path))
            #expect(FileManager.default.fileExists(atPath: fresh.path))
            #expect(try await reopened.keys() == ["k"])
            #expect(try await reopened.load("k") == Data("v".utf8))
        }
    }

    @Test("many tasks saving at once leave every record readable")
    func concurrentSaves() async throws {
        try await withTemporaryDirectory { root in
            let directory = root.appendingPathComponent("credentials")
            let key = SymmetricKey(size: .bits256)
            // Two instances on one directory, as two parts of an app (or two processes) would do.
            let first = try EncryptedFileCredentialStore(directory: directory, keySource: .key(key))
            let second = try EncryptedFileCredentialStore(directory: directory, keySource: .key(key))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<64 {
                    let store = index.isMultiple(of: 2) ? first : second
                    group.addTask {
                        try await store.save(Data("own \(index)".utf8), for: "own-\(index)")
                        try await store.save(Data("shared \(index)".utf8), for: "shared")
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await first.keys().count == 65)
            for index in 0..<64 {
                #expect(try await second.load("own-\(index)") == Data("own \(index)".utf8))
            }
            let shared = String(decoding: try #require(try await first.load("shared")), as: UTF8.self)
            #expect(shared.hasPrefix("shared "))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 65)
        }
    }

    @Test("default(applicationName:) refuses names that are not a single path component")
    func defaultLocationRejectsBadNames() async {
        for name in ["", ".", "..", "a/b", "../escape"] {
            let error = await storeError { _ = try EncryptedFileCredentialStore.default(applicationName: name) }
            guard case .unavailable(let message) = error else {
                Issue.record("\(name): expected unavailable, got \(String(describing: error))")
                continue
            }
            #expect(message.contains("application name"))
        }
    }
}
