import Foundation

/// Programs from the machine's packages that the benchmarks run.
enum Executables {
    /// `name` on `PATH`, or an error saying which Debian package brings it.
    static func find(_ name: String, package: String) throws -> URL {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") + ":/usr/sbin:/usr/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw BenchmarkSetupError("\(name) is not installed: `apt-get install \(package)` (Debian/Ubuntu)")
    }
}

/// Runs a program to its end without blocking a thread; returns its standard output.
enum ChildRun {
    @discardableResult
    static func run(_ executable: URL, _ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ChildEnvironment.withoutBenchmarkHooks()
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let once = ResumeOnce()
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in once.run { continuation.resume(returning: finished.terminationStatus) } }
            do { try process.run() } catch { once.run { continuation.resume(throwing: error) } }
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard status == 0 else {
            throw BenchmarkSetupError("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed (\(status)):\n\(text)")
        }
        return text
    }
}

/// A TCP port on 127.0.0.1 that nothing listens on now, for a server that needs its port in a
/// configuration file (glewlwyd cannot be told port 0).
enum FreePort {
    static func pick() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkSetupError("socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else { throw BenchmarkSetupError("bind() failed") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw BenchmarkSetupError("getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
