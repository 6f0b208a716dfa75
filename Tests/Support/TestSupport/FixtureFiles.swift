import Foundation

/// The repository's fixture files (shared by every test target: the `TestSupport` support target), `Tests/Fixtures` (sources and licenses in its README),
/// located from this file's path, whatever the working directory of the test process.
public enum FixtureFiles {
    public static var root: URL {
        URL(fileURLWithPath: #filePath)  // .../Tests/Support/TestSupport/FixtureFiles.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
    }

    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(relativePath))
    }

    public static func json(_ relativePath: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: data(relativePath)) as? [String: Any] ?? [:]
    }
}
