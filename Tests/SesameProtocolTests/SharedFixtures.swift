import Foundation

/// Locates `../shared` (test vectors and specs) beside the package root, whatever the working
/// directory of the test process.
enum SharedFixtures {
    static var root: URL {
        URL(fileURLWithPath: #filePath)  // .../Tests/SesameProtocolTests/SharedFixtures.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared")
    }

    static func json(_ relativePath: String) throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent(relativePath))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
