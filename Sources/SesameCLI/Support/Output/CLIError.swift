import ArgumentParser
import Foundation
import Sesame
import SesameServer

/// A failure the user can act on, printed as exactly one line:
/// `error: <what happened>. <what to do>` and mapped to a non-zero exit code.
///
/// Exit codes (documented in `sesame --help`):
/// - 1: the operation failed (network, server, storage, validation...)
/// - 2: not signed in / no such account (sign in with `sesame login`)
/// - 22: `sesame curl` got an HTTP status of 400 or more (like `curl --fail`)
/// - 64: usage errors reported by the argument parser
struct CLIError: Error, CustomStringConvertible, Sendable {
    var message: String
    var hint: String?
    var exitCode: Int32

    init(_ message: String, hint: String? = nil, exitCode: Int32 = 1) {
        self.message = message
        self.hint = hint
        self.exitCode = exitCode
    }

    /// The single line printed to stderr (newlines in server-provided text are flattened).
    var description: String {
        var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        if let hint, !hint.isEmpty {
            if !text.hasSuffix(".") { text += "." }
            text += " " + hint
        }
        return "error: " + Self.singleLine(text)
    }

    static func singleLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }

    static let notSignedInExitCode: Int32 = 2
    static let httpFailureExitCode: Int32 = 22

    /// Maps any error thrown by the SDK, the server or Foundation to a ``CLIError``.
    static func from(_ error: any Error) -> CLIError {
        switch error {
        case let error as CLIError:
            return error
        case let error as SesameError:
            return from(sesame: error)
        case let error as CredentialStoreError:
            return CLIError(
                "\(error)", hint: "If it persists, delete the config directory and sign in again.")
        case let error as StoreError:
            return CLIError("\(error)")
        case let error as DataDirectoryError:
            return CLIError("\(error)")
        case let error as DecodingError:
            return CLIError(
                "unexpected data: \(describe(decoding: error))",
                hint: "Check the file or server you pointed sesame at.")
        case let error as URLError:
            return CLIError(
                "network error: \(error.localizedDescription)",
                hint: "Check that the server is running and the URL is right.")
        case let error as CocoaError:
            return CLIError("file error: \(error.localizedDescription)")
        default:
            return CLIError("\(error)")
        }
    }

    private static func from(sesame error: SesameError) -> CLIError {
        switch error.code {
        case .noSession:
            return CLIError(
                "not signed in (or no such account)", hint: "Run `sesame login` first.",
                exitCode: notSignedInExitCode)
        default:
            return CLIError(error.description)
        }
    }

    private static func describe(decoding error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context),
            .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// Runs a command body; any failure is printed as one line on stderr and turned into an
/// `ExitCode`, which ArgumentParser exits with silently.
func reportingErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        let failure = CLIError.from(error)
        Terminal.error(failure.description)
        throw ExitCode(failure.exitCode)
    }
}
