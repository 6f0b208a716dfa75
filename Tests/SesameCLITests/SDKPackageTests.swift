import Foundation
import Testing

/// Issue #30: the SDK's own package (`SDK/Package.swift`) declares the Apple floor apps need
/// (iOS 15, macOS 13, tvOS 15, watchOS 8, visionOS 1) while the root package keeps the server's.
/// It builds the root's SDK sources through links, so the two manifests must not drift: the same
/// targets, sources and dependencies, and nothing of the server.
@Suite("The SDK's own package (SDK/)")
struct SDKPackageTests {
    static let directory = PackageLayoutTests.root.appendingPathComponent("SDK")
    static let modules = [
        "SesameProtocol", "SesameJOSE", "Sesame", "ChildProcess", "SesameLoopback", "SesameResourceServer", "SesameNIOTransport",
        "HTTP1Client",
    ]

    /// `name → [dependency names]` of the manifest's targets.
    static func targets(_ manifest: [String: Any]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for target in manifest["targets"] as? [[String: Any]] ?? [] {
            guard let name = target["name"] as? String else { continue }
            result[name] = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                if let byName = dependency["byName"] as? [Any] { return byName.first as? String }
                if let product = dependency["product"] as? [Any] {
                    return "\(product.dropFirst().first as? String ?? "?").\(product.first as? String ?? "?")"
                }
                if let target = dependency["target"] as? [Any] { return target.first as? String }
                return nil
            }.sorted()
        }
        return result
    }

    /// `platform → version` of the manifest.
    static func platforms(_ manifest: [String: Any]) -> [String: String] {
        var result: [String: String] = [:]
        for platform in manifest["platforms"] as? [[String: Any]] ?? [] {
            if let name = platform["platformName"] as? String, let version = platform["version"] as? String {
                result[name] = version
            }
        }
        return result
    }

    @Test("SDK/ has exactly the SDK's targets, each with the root's dependencies and the root's sources")
    func sameTargets() async throws {
        let root = Self.targets(try await PackageLayoutTests.dumpPackage())
        let sdk = Self.targets(try await PackageLayoutTests.dumpPackage(at: Self.directory))
        // Besides the modules: the docs' SDK code blocks and the quickstart app, built against
        // this package alone.
        #expect(Set(sdk.keys) == Set(Self.modules + ["SDKSnippets", "Quickstart"]))
        for extra in ["SDKSnippets", "Quickstart"] {
            #expect(sdk[extra] == root[extra], "\(extra): SDK/ \(sdk[extra] ?? []) vs root \(root[extra] ?? [])")
        }
        for module in Self.modules {
            #expect(sdk[module] == root[module], "\(module): SDK/ \(sdk[module] ?? []) vs root \(root[module] ?? [])")
            let linked = Self.directory.appendingPathComponent("Sources/\(module)").resolvingSymlinksInPath()
            let original = PackageLayoutTests.root.appendingPathComponent("Sources/\(module)").resolvingSymlinksInPath()
            #expect(linked.path == original.path, "SDK/Sources/\(module) must link to Sources/\(module)")
        }
        // Nothing of the server reaches the SDK package, and SwiftNIO only its own product
        // (SesameNIOTransport, for Linux apps that pin certificates) and the HTTP/1.1 client under it.
        let onNIO: Set = ["SesameNIOTransport", "HTTP1Client"]
        let dependencies = sdk.filter { !onNIO.contains($0.key) }.values.flatMap { $0 }
        #expect(!dependencies.contains { $0.contains("nio") || $0.contains("hummingbird") || $0.hasPrefix("SesameS") })
        #expect(!sdk.contains { $0.key != "SesameNIOTransport" && $0.value.contains("SesameNIOTransport") })
        #expect(!sdk.contains { !onNIO.contains($0.key) && $0.value.contains("HTTP1Client") })
        for module in onNIO {
            #expect(!(sdk[module] ?? []).contains { $0.contains("hummingbird") || $0.hasPrefix("SesameS") })
        }
    }

    @Test("SDK/ declares the app floor (iOS 15, macOS 13, tvOS 15, watchOS 8, visionOS 1); the root keeps the server's")
    func floors() async throws {
        let sdk = Self.platforms(try await PackageLayoutTests.dumpPackage(at: Self.directory))
        #expect(sdk == ["ios": "15.0", "macos": "13.0", "tvos": "15.0", "watchos": "8.0", "visionos": "1.0"])
        let root = Self.platforms(try await PackageLayoutTests.dumpPackage())
        #expect(root["macos"] == "15.0" && root["ios"] == "18.0", "\(root)")
    }

    /// The SDK's sources use no API newer than the SDK package's floor that Linux would not flag:
    /// `Synchronization` (iOS 18) and the standard library's `Duration` and clocks (iOS 16).
    @Test("the SDK's sources use neither Synchronization nor Duration, clocks or Regex (newer than iOS 15)")
    func noNewerAPIs() throws {
        let forbidden = ["import Synchronization", "Duration", "ContinuousClock", "SuspendingClock", "Task.sleep(for:", "Regex<"]
        for module in Self.modules {
            let folder = PackageLayoutTests.root.appendingPathComponent("Sources/\(module)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            #expect(!files.isEmpty)
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                for name in forbidden where code.contains(where: { $0.contains(name) }) {
                    Issue.record("Sources/\(module)/\(file) uses \(name), newer than the SDK package's floor")
                }
            }
        }
    }
}

/// The SDK's release (issue #45): `SDK/cut-release.sh` cuts `SDK/` into a repository of its own
/// with no links left, tagged with the version, whose manifest SwiftPM reads as it is.
@Suite("Cutting an SDK release")
struct SDKReleaseTests {
    @Test("the cut repository has the manifest, real files instead of links, and the version's tag; a bad version is refused")
    func cut() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-sdk-release-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let script = SDKPackageTests.directory.appendingPathComponent("cut-release.sh").path
        let (status, log) = try await PublicAPI.run("/bin/bash", [script, "1.4.0", out.path])
        #expect(status == .exited(0), "\(log)")
        let manager = FileManager.default
        #expect(manager.fileExists(atPath: out.appendingPathComponent("Package.swift").path))
        for path in manager.enumerator(atPath: out.path)?.compactMap({ $0 as? String }) ?? [] where !path.hasPrefix(".git") {
            let attributes = try manager.attributesOfItem(atPath: out.appendingPathComponent(path).path)
            #expect(attributes[.type] as? FileAttributeType != .typeSymbolicLink, "\(path) is still a link")
        }
        #expect(manager.fileExists(atPath: out.appendingPathComponent("Sources/Sesame/Client/SesameClient.swift").path))
        let manifest = try await PackageLayoutTests.dumpPackage(at: out)
        #expect(manifest["name"] as? String == "SesameSDK")
        let (tagStatus, tags) = try await PublicAPI.run("/usr/bin/git", ["-C", out.path, "tag"])
        #expect(tagStatus == .exited(0) && tags.contains("1.4.0"), "\(tags)")
        let (refused, _) = try await PublicAPI.run("/bin/bash", [script, "v1", out.path + "-other"])
        #expect(refused == .exited(64))
    }
}
