import Foundation

/// The repository's fixture files, `Tests/Fixtures` (sources and licenses in its README),
/// located from this file's path, whatever the working directory of the test process.
enum FixtureFiles {
    static var root: URL {
        URL(fileURLWithPath: #filePath)  // .../Tests/SesameTests/Support/FixtureFiles.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
    }

    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(relativePath))
    }

    static func json(_ relativePath: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: data(relativePath)) as? [String: Any] ?? [:]
    }
}
