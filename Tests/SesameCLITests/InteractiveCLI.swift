import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `sesame` with a pipe on stdin, so a test can answer prompts as a person would: wait for
/// a prompt on stderr, look something up (a code in the server's outbox), then type the answer.
/// Output goes to temp files; the exit is awaited through the termination handler.
final class InteractiveCLI: Sendable {
    let arguments: [String]
    private let outURL: URL
    private let errURL: URL
    private let input: FileHandle
    private let exit: AsyncStream<Int32>
    private let process: Process
    let pid: Int32

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        self.arguments = arguments
        let (process, files) = try CLIProcess.prepare(arguments, environment: environment, prefix: "sesame-icli")
        outURL = files.appendingPathExtension("out")
        errURL = files.appendingPathExtension("err")
        let pipe = Pipe()
        process.standardInput = pipe
        input = pipe.fileHandleForWriting
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        exit = stream
        process.terminationHandler = { finished in
            continuation.yield(finished.terminationStatus)
            continuation.finish()
        }
        try process.run()
        pid = process.processIdentifier
        self.process = process
    }

    deinit {
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }

    func stdout() -> String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }
    func stderr() -> String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

    /// Types one line.
    func type(_ line: String) throws {
        try input.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Closes stdin (end of input).
    func closeInput() throws { try input.close() }

    /// Polls stderr until `text` occurs `count` times (the process keeps running); fails early
    /// when the process exits first.
    func waitForPrompt(_ text: String, count: Int = 1, timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if stderr().components(separatedBy: text).count - 1 >= count { return }
            if !process.isRunning {
                throw CLIProcess.CLIError("sesame \(arguments.joined(separator: " ")) exited before '\(text)': \(stderr())")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        kill(pid, SIGKILL)
        throw CLIProcess.Timeout(arguments: arguments)
    }

    /// The exit status and output; kills the process after `timeout`.
    func finish(timeout: Duration = .seconds(60)) async throws -> CLIProcess.Result {
        try? closeInput()
        let status = try await CLIProcess.awaitExit(exit, pid: pid, arguments: arguments, timeout: timeout)
        return CLIProcess.Result(status: status, stdout: stdout(), stderr: stderr())
    }
}
