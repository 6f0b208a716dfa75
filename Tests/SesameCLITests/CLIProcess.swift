import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `sesame` executable as a subprocess, the way users and scripts do.
/// Output goes to temp files (no pipe-buffer deadlocks); termination is awaited through the
/// termination handler, never by blocking a thread.
enum CLIProcess {
    struct Result: Sendable, CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String

        /// Non-empty stderr lines.
        var stderrLines: [Substring] { stderr.split(separator: "\n", omittingEmptySubsequences: true) }

        var description: String {
            "exit \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)"
        }
    }

    struct Timeout: Error, CustomStringConvertible {
        var arguments: [String]
        var description: String { "sesame \(arguments.joined(separator: " ")) timed out" }
    }

    /// `.build/<config>/sesame`, next to the test bundle.
    static let executable: URL = {
        if let explicit = ProcessInfo.processInfo.environment["SESAME_CLI_PATH"] {
            return URL(fileURLWithPath: explicit)
        }
        let bundle = Bundle.main.bundleURL
        let candidates = [
            bundle.appendingPathComponent("sesame"),
            bundle.deletingLastPathComponent().appendingPathComponent("sesame"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/sesame"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? candidates[0]
    }()

    /// Runs `sesame arguments...` to completion.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
        in directory: URL? = nil, timeout: Duration = .seconds(120)
    ) async throws -> Result {
        let started = try Started(arguments, environment: environment, stdin: stdin, in: directory)
        defer { started.removeFiles() }
        let status = try await started.waitForExit(timeout: timeout)
        return Result(status: status, stdout: started.stdout(), stderr: started.stderr())
    }

    /// The first status `exit` yields; kills `pid` with SIGKILL and throws ``Timeout`` after
    /// `timeout`.
    static func awaitExit(
        _ exit: AsyncStream<Int32>, pid: Int32, arguments: [String], timeout: Duration
    ) async throws -> Int32 {
        let status = try await withThrowingTaskGroup(of: Int32?.self) { group in
            group.addTask {
                for await status in exit { return status }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                kill(pid, SIGKILL)
                throw Timeout(arguments: arguments)
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let status else { throw Timeout(arguments: arguments) }
        return status
    }

    /// A `sesame` process, not yet started, isolated from the developer's own state (no
    /// `SESAME_CONFIG_DIR`, `BROWSER` or `SESAME_LOG_LEVEL` unless `environment` sets them),
    /// with stdout and stderr going to `<files>.out` and `<files>.err`.
    static func prepare(_ arguments: [String], environment: [String: String], prefix: String) throws
        -> (process: Process, files: URL)
    {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        let outURL = files.appendingPathExtension("out")
        let errURL = files.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["SESAME_CONFIG_DIR"] = nil
        env["BROWSER"] = nil
        env["SESAME_LOG_LEVEL"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        return (process, files)
    }

    /// A running `sesame` process (e.g. `serve`).
    final class Started: Sendable {
        let arguments: [String]
        let pid: Int32
        private let outURL: URL
        private let errURL: URL
        private let exit: AsyncStream<Int32>
        private let exitStatus: ExitStatus
        /// Kept alive while it runs; only touched in `init`.
        private let process: Process

        init(
            _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
            in directory: URL? = nil
        ) throws {
            self.arguments = arguments
            let (process, files) = try CLIProcess.prepare(arguments, environment: environment, prefix: "sesame-cli")
            outURL = files.appendingPathExtension("out")
            errURL = files.appendingPathExtension("err")
            if let directory { process.currentDirectoryURL = directory }
            if let stdin {
                let inURL = files.appendingPathExtension("in")
                try Data(stdin.utf8).write(to: inURL)
                process.standardInput = try FileHandle(forReadingFrom: inURL)
            } else {
                process.standardInput = FileHandle.nullDevice
            }
            let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
            exit = stream
            let exitStatus = ExitStatus()
            self.exitStatus = exitStatus
            self.process = process
            process.terminationHandler = { finished in
                exitStatus.value.withLock { $0 = finished.terminationStatus }
                continuation.yield(finished.terminationStatus)
                continuation.finish()
            }
            try process.run()
            pid = process.processIdentifier
        }

        deinit { removeFiles() }

        func stdout() -> String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }
        func stderr() -> String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

        func removeFiles() {
            for url in [outURL, errURL, outURL.deletingPathExtension().appendingPathExtension("in")] {
                try? FileManager.default.removeItem(at: url)
            }
        }

        /// Waits for the exit status; kills the process and throws after `timeout`.
        func waitForExit(timeout: Duration = .seconds(60)) async throws -> Int32 {
            if let status = exitStatus.value.withLock({ $0 }) { return status }
            let status = try await CLIProcess.awaitExit(exit, pid: pid, arguments: arguments, timeout: timeout)
            exitStatus.value.withLock { $0 = status }
            return status
        }

        /// Polls stdout until a line starts with `prefix` (the process keeps running).
        func firstLine(startingWith prefix: String, timeout: Duration = .seconds(60)) async throws -> String {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if let line = stdout().split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) {
                    return String(line)
                }
                if exitStatus.value.withLock({ $0 }) != nil {
                    throw CLIError("sesame \(arguments.joined(separator: " ")) exited early: \(stderr())")
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            throw Timeout(arguments: arguments)
        }

        /// Runs `body`; if it throws, the process is terminated before the error propagates, so
        /// a failing test never leaves a server behind.
        func whileRunning<T>(_ body: () async throws -> T) async throws -> T {
            do {
                return try await body()
            } catch {
                _ = try? await terminate()
                throw error
            }
        }

        /// Sends SIGTERM and returns the exit status.
        func terminate() async throws -> Int32 {
            kill(pid, SIGTERM)
            return try await waitForExit(timeout: .seconds(30))
        }
    }

    final class ExitStatus: Sendable {
        let value = Mutex<Int32?>(nil)
    }

    struct CLIError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// A unique temporary directory per test, removed by ``remove()``.
struct TempDirectory: Sendable {
    let url: URL

    init(_ label: String = "test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sesame-cli-\(label)-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ component: String) -> String { url.appendingPathComponent(component).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
