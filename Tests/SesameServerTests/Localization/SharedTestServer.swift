import SesameTesting
import Testing

/// One seeded ``TestServer`` for a whole suite: `@Suite(.sharedTestServer)` starts it before
/// the suite's first test and stops it after the last one, so a test parameterized over the 19
/// locales does not boot 19 servers. Tests read it with ``SharedTestServer/server()``.
/// Only for tests that do not change server state in ways other tests would see.
struct SharedTestServer: SuiteTrait, TestScoping {
    @TaskLocal static var current: TestServer?

    static func server() throws -> TestServer {
        try #require(current, "the suite needs the .sharedTestServer trait")
    }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try await TestServer.start()
        do {
            try await Self.$current.withValue(server) { try await function() }
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }
}

extension Trait where Self == SharedTestServer {
    static var sharedTestServer: Self { Self() }
}

/// The locales of listed independently of ``StringTables/tags`` so a dropped
/// table fails the tests.
enum SpecLocales {
    static let tags = [
        "ar", "da", "de", "en", "es", "fi", "fr", "hu", "it", "ja", "ko", "nb", "nl", "pt", "ru", "sk",
        "sv", "zh-Hans", "zh-Hant",
    ]
    static let nonEnglish = tags.filter { $0 != "en" }

    /// Regional and script aliases and the table each must resolve to.
    static let aliases: [(tag: String, table: String)] = [
        ("zh-CN", "zh-Hans"), ("zh-SG", "zh-Hans"), ("zh-TW", "zh-Hant"), ("zh-HK", "zh-Hant"),
        ("zh-MO", "zh-Hant"), ("nn-NO", "nb"), ("pt-BR", "pt"), ("de-AT", "de"),
    ]
}

extension String {
    /// The text as swift-mustache's `{{ }}` escapes it, to find localized strings in pages.
    var htmlEscaped: String {
        var result = ""
        for character in self {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
