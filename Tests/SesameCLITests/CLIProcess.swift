import ChildProcess
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `sesame` executable as a subprocess, the way users and scripts do.
/// Output goes to temp files (no pipe-buffer deadlocks); termination is awaited without
/// blocking a thread (``SpawnedChild``).
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

    /// The `--scrypt-cost` of the tests' `serve` processes.
    static let cheapScryptCost = "10"

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

    /// The first status `exit` yields; kills `child` with SIGKILL and throws ``Timeout`` after
    /// `timeout`.
    static func awaitExit(
        _ exit: AsyncStream<SpawnedChild.Termination>, child: SpawnedChild, arguments: [String], timeout: Duration
    ) async throws -> Int32 {
        let status = try await withThrowingTaskGroup(of: Int32?.self) { group in
            group.addTask {
                for await ended in exit { return ended.status }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                child.send(SIGKILL)
                throw Timeout(arguments: arguments)
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let status else { throw Timeout(arguments: arguments) }
        return status
    }

    /// Starts `sesame arguments...` isolated from the developer's own state (no
    /// `SESAME_CONFIG_DIR`, `BROWSER` or `SESAME_LOG_LEVEL` unless `environment` sets them),
    /// with stdout and stderr going to `<files>.out` and `<files>.err`. `serve` and `user add`
    /// hash passwords at the cheapest cost an operator may choose (``cheapScryptCost``) unless
    /// the arguments name one: at the product's default the suite spent about 30 s of CPU in
    /// scrypt.
    static func start(
        _ arguments: [String], environment: [String: String], prefix: String,
        input: (URL) throws -> SpawnedChild.Input, in directory: URL? = nil
    ) throws -> (child: SpawnedChild, files: URL) {
        var arguments = arguments
        if arguments.first == "serve" || arguments.starts(with: ["user", "add"]), !arguments.contains("--scrypt-cost") {
            arguments += ["--scrypt-cost", cheapScryptCost]
        }
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        let outURL = files.appendingPathExtension("out")
        let errURL = files.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        var env = ProcessInfo.processInfo.environment
        env["SESAME_CONFIG_DIR"] = nil
        env["BROWSER"] = nil
        env["SESAME_LOG_LEVEL"] = nil
        for (key, value) in environment { env[key] = value }
        let child = try SpawnedChild.spawn(
            executable.path, arguments: arguments, environment: env, input: try input(files),
            output: .file(outURL.path), error: .file(errURL.path), directory: directory?.path)
        return (child, files)
    }

    /// A running `sesame` process (e.g. `serve`).
    final class Started: Sendable {
        let arguments: [String]
        let pid: Int32
        private let child: SpawnedChild
        private let outURL: URL
        private let errURL: URL
        private let exit: AsyncStream<SpawnedChild.Termination>
        private let ended: TerminationRecord
        init(
            _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
            in directory: URL? = nil
        ) throws {
            self.arguments = arguments
            let (child, files) = try CLIProcess.start(
                arguments, environment: environment, prefix: "sesame-cli",
                input: { files in
                    guard let stdin else { return .file("/dev/null") }
                    let inURL = files.appendingPathExtension("in")
                    try Data(stdin.utf8).write(to: inURL)
                    return .file(inURL.path)
                },
                in: directory)
            outURL = files.appendingPathExtension("out")
            errURL = files.appendingPathExtension("err")
            (exit, ended) = child.watch()
            pid = child.pid
            self.child = child
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
            if let termination = ended.termination { return termination.status }
            return try await CLIProcess.awaitExit(exit, child: child, arguments: arguments, timeout: timeout)
        }

        /// Polls stdout until a line starts with `prefix` (the process keeps running).
        func firstLine(startingWith prefix: String, timeout: Duration = .seconds(60)) async throws -> String {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if let line = stdout().split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) {
                    return String(line)
                }
                if ended.termination != nil {
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

        /// `kill -9`: no cleanup, no graceful shutdown; returns once the process is gone.
        func kill() async throws -> Int32 {
            child.send(SIGKILL)
            return try await waitForExit(timeout: .seconds(30))
        }

        /// Sends `signal` (e.g. SIGHUP) and returns at once.
        func send(_ signal: Int32) { child.send(signal) }

        /// Sends SIGTERM and returns the exit status.
        func terminate() async throws -> Int32 {
            child.send(SIGTERM)
            return try await waitForExit(timeout: .seconds(30))
        }
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
