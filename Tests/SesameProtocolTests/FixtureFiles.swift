import Foundation

/// The repository's fixture files, `Tests/Fixtures` (sources and licenses in its README),
/// located from this file's path, whatever the working directory of the test process.
enum FixtureFiles {
    static var root: URL {
        URL(fileURLWithPath: #filePath)  // .../Tests/SesameProtocolTests/FixtureFiles.swift
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    }

    static func json(_ relativePath: String) throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent(relativePath))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
