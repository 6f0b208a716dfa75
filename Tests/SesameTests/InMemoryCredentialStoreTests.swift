import Foundation
import Sesame
import Testing

@Suite("InMemoryCredentialStore")
struct InMemoryCredentialStoreTests {
    @Test("saves, overwrites, lists and removes records")
    func lifecycle() async throws {
        let store = InMemoryCredentialStore()
        #expect(try await store.load("a") == nil)
        try await store.save(Data("one".utf8), for: "a")
        try await store.save(Data("two".utf8), for: "b")
        try await store.save(Data("three".utf8), for: "a")
        #expect(try await store.load("a") == Data("three".utf8))
        #expect(Set(try await store.keys()) == ["a", "b"])
        try await store.remove("a")
        try await store.remove("missing")
        #expect(try await store.load("a") == nil)
        #expect(try await store.keys() == ["b"])
    }

    @Test("concurrent saves all land")
    func concurrentSaves() async throws {
        let store = InMemoryCredentialStore()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask { try await store.save(Data("\(index)".utf8), for: "key-\(index)") }
            }
            try await group.waitForAll()
        }
        #expect(try await store.keys().count == 100)
        #expect(try await store.load("key-42") == Data("42".utf8))
    }
}
