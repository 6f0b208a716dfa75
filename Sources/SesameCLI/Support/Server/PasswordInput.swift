import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a password for `sesame user add` without it appearing on screen or in output.
enum PasswordInput {
    /// One line from stdin (`--password-stdin`), without the trailing newline.
    static func readLineFromStdin() throws(CLIError) -> String {
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw CLIError(
                "--password-stdin read no password",
                hint: "Pipe the password in, e.g. `printf '%s\\n' \"$PW\" | sesame user add ...`.")
        }
        return line
    }

    /// Prompts on the terminal with echo off (termios), twice to confirm.
    static func prompt(for username: String) throws(CLIError) -> String {
        let first = try readHidden(prompt: "Password for \(username): ")
        let second = try readHidden(prompt: "Repeat the password: ")
        guard first == second else {
            throw CLIError("the two passwords differ", hint: "Run the command again.")
        }
        guard !first.isEmpty else {
            throw CLIError("the password is empty", hint: "Type a password.")
        }
        return first
    }

    static func readHidden(prompt: String) throws(CLIError) -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else {
            throw CLIError(
                "cannot turn off echo on this terminal",
                hint: "Use --password-stdin instead.")
        }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        let line = readLine(strippingNewline: true)
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
        FileHandle.standardError.write(Data("\n".utf8))
        guard let line else {
            throw CLIError("no password was entered", hint: "Run the command again.")
        }
        return line
    }
}
