import ChildProcess
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `sesame` with a pipe on stdin, so a test can answer prompts as a person would: wait for
/// a prompt on stderr, look something up (a code in the server's outbox), then type the answer.
/// Output goes to temp files; the exit is awaited without blocking a thread.
final class InteractiveCLI: Sendable {
    let arguments: [String]
    private let outURL: URL
    private let errURL: URL
    private let input: FileHandle
    private let exit: AsyncStream<SpawnedChild.Termination>
    private let ended: TerminationRecord
    let pid: Int32
    private let child: SpawnedChild

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        self.arguments = arguments
        // Both ends close on exec; the child gets the read end as its stdin only.
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw CLIProcess.CLIError("pipe failed: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }
        input = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let (child, files) = try CLIProcess.start(
            arguments, environment: environment, prefix: "sesame-icli", input: { _ in .descriptor(ends[0]) })
        outURL = files.appendingPathExtension("out")
        errURL = files.appendingPathExtension("err")
        (exit, ended) = child.watch()
        pid = child.pid
        self.child = child
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
            if ended.termination != nil {
                throw CLIProcess.CLIError("sesame \(arguments.joined(separator: " ")) exited before '\(text)': \(stderr())")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        child.send(SIGKILL)
        throw CLIProcess.Timeout(arguments: arguments)
    }

    /// The exit status and output; kills the process after `timeout`.
    func finish(timeout: Duration = .seconds(60)) async throws -> CLIProcess.Result {
        try? closeInput()
        let status = try await CLIProcess.awaitExit(exit, child: child, arguments: arguments, timeout: timeout)
        return CLIProcess.Result(status: status, stdout: stdout(), stderr: stderr())
    }
}
