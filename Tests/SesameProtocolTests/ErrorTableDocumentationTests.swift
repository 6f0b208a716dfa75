import Foundation
import SesameProtocol
import Testing

/// `docs/errors.md` is the documented table of stable numeric error codes. It is
/// rendered from ``APIErrorCode`` so it cannot drift: this test fails when they differ.
/// Regenerate with `SESAME_UPDATE_DOCS=1 swift test --filter ErrorTableDocumentation`.
@Suite("Error code table documentation")
struct ErrorTableDocumentationTests {
    static func render() -> String {
        var lines = [
            "# Sesame API error codes",
            "",
            "Every error response of the Sesame server is an RFC 6749 §5.2 error body extended with",
            "`error_id`, `error_code`, `error_user_msg`, `error_message_key` and `error_details`",
            "(see `APIError` in `Sources/SesameProtocol/Errors/APIError.swift`). `error_code` is one of",
            "the stable numbers below; numbers are never reused or renumbered.",
            "",
            "Generated from `APIErrorCode` (`Sources/SesameProtocol/Errors/APIErrorCode.swift`);",
            "a test keeps this file and the code in step.",
            "",
            "| code | `error` | HTTP | `error_message_key` | meaning |",
            "|---:|---|---:|---|---|",
        ]
        for code in APIErrorCode.allCases {
            lines.append(
                "| \(code.rawValue) | `\(code.error)` | \(code.httpStatus) | `\(code.messageKey)` | \(code.defaultDescription) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("docs/errors.md matches APIErrorCode")
    func documentationMatches() throws {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let docs = packageRoot.appendingPathComponent("docs/errors.md")
        let rendered = Self.render()
        if ProcessInfo.processInfo.environment["SESAME_UPDATE_DOCS"] == "1" {
            try rendered.write(to: docs, atomically: true, encoding: .utf8)
        }
        let current = try String(contentsOf: docs, encoding: .utf8)
        #expect(current == rendered, "docs/errors.md is stale: run SESAME_UPDATE_DOCS=1 swift test --filter ErrorTableDocumentation")
    }

    @Test("codes are unique and within their documented ranges")
    func ranges() {
        let raw = APIErrorCode.allCases.map(\.rawValue)
        #expect(Set(raw).count == raw.count)
        for code in APIErrorCode.allCases {
            #expect((1000..<6000).contains(code.rawValue))
        }
    }
}
