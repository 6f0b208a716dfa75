import Foundation
import Testing
@testable import SesameStore
import StoreTesting

@Suite("DataDirectory")
struct DataDirectoryTests {
    static func permissions(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    @Test("prepare creates the directory 0700; the master key is 32 bytes, 0600, stable")
    func masterKey() async throws {
        let parent = try StoreSandbox.make()
        defer { parent.remove() }
        let directory = DataDirectory(url: parent.directory.appendingPathComponent("nested/.sesame"))
        try directory.prepare()
        #expect(try Self.permissions(directory.url) == 0o700)
        #expect(directory.databaseURL.lastPathComponent == "sesame.sqlite")

        let key = try await directory.masterKey()
        #expect(key.bitCount == 256)
        #expect(try Self.permissions(directory.masterKeyURL) == 0o600)
        let bytes = try Data(contentsOf: directory.masterKeyURL)
        #expect(bytes.count == 32)
        #expect(key.withUnsafeBytes { Data($0) } == bytes)
        #expect(try await directory.masterKey() == key)
    }

    @Test("a master key another process has created but not yet written is waited for, not refused")
    func keyBeingWritten() async throws {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let directory = sandbox.dataDirectory
        try directory.prepare()
        _ = FileManager.default.createFile(atPath: directory.masterKeyURL.path, contents: Data())
        let written = Data(repeating: 9, count: 32)
        let writer = Task {
            try await Task.sleep(for: .milliseconds(100))
            try written.write(to: directory.masterKeyURL)
        }
        let key = try await directory.masterKey()
        try await writer.value
        #expect(key.withUnsafeBytes { Data($0) } == written)
    }

    @Test("a master key of the wrong size is refused with a clear error")
    func wrongSize() async throws {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let directory = sandbox.dataDirectory
        try Data(repeating: 7, count: 16).write(to: directory.masterKeyURL)
        await #expect(throws: DataDirectoryError.invalidMasterKey(path: directory.masterKeyURL.path, byteCount: 16)) {
            _ = try await directory.masterKey()
        }
    }

    @Test("a data directory path that is a file is refused")
    func notADirectory() throws {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let file = sandbox.directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        #expect(throws: DataDirectoryError.notADirectory(path: file.path)) {
            try DataDirectory(url: file).prepare()
        }
    }
}
