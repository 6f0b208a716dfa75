import Foundation
import Testing
@testable import SesameServer

/// The console's strings are data (issue #47): every key its sources name, and every key they
/// build from a prefix, is in the English table, so no page shows a bare key.
@Suite("Admin console: strings")
struct ConsoleTextTests {
    static let consoleSources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/SesameServer/Admin/Console")

    @Test("every key the console's sources use is in ConsoleStrings/en.json")
    func everyKeyExists() throws {
        let english = try #require(ConsoleText.tables["en"])
        var used: Set<String> = []
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.consoleSources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count >= 8)
        let pattern = try NSRegularExpression(pattern: #"string\("([a-z_.]+[a-z_])""#)
        for file in files {
            let text = try String(contentsOf: Self.consoleSources.appendingPathComponent(file), encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                used.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        // Keys the pages build from a prefix and a value.
        for section in ConsoleRenderer.sectionOrder { used.insert("nav." + section) }
        for series in OperatorOverview.series { used.insert("home.series." + series.name) }
        for window in OperatorOverview.Window.allCases { used.insert("home.window." + window.rawValue) }
        for policy in ["never", "when_enrolled", "always"] { used.insert("client.mfa." + policy) }
        for since in ["hour", "day", "week", "all"] { used.insert("audit.since." + since) }
        for done in ["disable", "enable", "unlock", "end_sessions", "end_session"] { used.insert("user.done." + done) }
        #expect(used.count > 80)
        let missing = used.filter { english[$0] == nil }.sorted()
        #expect(missing.isEmpty, "not in ConsoleStrings/en.json: \(missing)")
    }

    @Test("a locale without a table falls back to English; placeholders are filled")
    func fallback() {
        let text = ConsoleText(locales: ["fr-CA", "de"])
        #expect(text.locale == "en")
        #expect(text.string("operator", ["user": "olga", "role": "admin"]) == "Signed in as olga (admin)")
    }
}
