import ArgumentParser
import Foundation
import Sesame
import SesameProtocol

/// Questions the client commands ask (username, password, MFA method, one-time code). On a
/// terminal they are prompts on stderr, the password without echo; otherwise each answer is the
/// next line of stdin, so scripts and tests can drive `sesame login --password` with a pipe.
/// Answers are never printed.
enum LoginPrompts {
    /// A visible answer, e.g. the username.
    static func line(_ prompt: String, what: String) throws(CLIError) -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        guard let line = readLine(strippingNewline: true) else {
            if !Terminal.stdinIsTTY { FileHandle.standardError.write(Data("\n".utf8)) }
            throw CLIError(
                "no \(what) was entered (stdin ended)",
                hint: Terminal.stdinIsTTY ? "Run the command again." : "Pipe one answer per line into stdin.")
        }
        let answer = line.trimmingCharacters(in: .whitespaces)
        guard !answer.isEmpty else {
            throw CLIError("the \(what) is empty", hint: "Run the command again and type the \(what).")
        }
        return answer
    }

    /// A secret answer: without echo on a terminal, else the next stdin line.
    static func secret(_ prompt: String, what: String) throws(CLIError) -> String {
        let answer: String
        if Terminal.stdinIsTTY {
            answer = try PasswordInput.readHidden(prompt: prompt)
        } else {
            FileHandle.standardError.write(Data((prompt + "\n").utf8))
            guard let line = readLine(strippingNewline: true) else {
                throw CLIError("no \(what) was entered (stdin ended)", hint: "Pipe one answer per line into stdin.")
            }
            answer = line
        }
        guard !answer.isEmpty else {
            throw CLIError("the \(what) is empty", hint: "Run the command again and type the \(what).")
        }
        return answer
    }

    /// A new password, asked twice on a terminal (once from stdin).
    static func newPassword(for account: String) throws(CLIError) -> String {
        if Terminal.stdinIsTTY { return try PasswordInput.prompt(for: account) }
        return try secret("Password for \(account): ", what: "password")
    }
}

/// Drives an MFA continuation from the terminal (docs/first-party-and-accounts.md): lists the methods, lets the user
/// choose one (or takes `--mfa-method`), starts it and asks for the code, again after a wrong
/// code while attempts remain.
enum MFAPrompt {
    static func complete<Challenge: MFAContinuation>(
        _ challenge: Challenge, preferred: MFAMethod?, passkey: (any PasskeyAuthenticator)? = nil
    ) async throws -> Challenge.Outcome {
        let methods = challenge.methods
        guard !methods.isEmpty else {
            throw CLIError(
                "the provider asks for a second factor but offers no method you have set up",
                hint: "Set up a second factor in your account first.")
        }
        Terminal.progress("A second factor is required. Available: \(methods.map(label).joined(separator: ", ")).")
        let method = try choose(from: methods, preferred: preferred)
        if method == .passkey {
            guard let passkey else {
                throw CLIError(
                    "this config directory has no passkey to answer with",
                    hint: "Choose another method, or add a passkey with `sesame passkey add`.")
            }
            return try await challenge.verify(with: passkey)
        }
        let delivery = try await challenge.start(method)
        switch method {
        case .totp, .passkey: Terminal.progress("Enter the code from your authenticator app.")
        case .email, .sms:
            Terminal.progress(delivery.destination ?? delivery.userMessage ?? "A code was sent (\(method.rawValue)).")
        }
        while true {
            let code = try LoginPrompts.line("Code: ", what: "code")
            switch await attempt(challenge, code: code) {
            case .success(let outcome):
                return outcome
            case .failure(let error):
                guard error.apiErrorCode == .invalidMFACode, let remaining = error.remainingAttempts, remaining > 0
                else { throw error }
                Terminal.progress("That code is not correct; \(remaining) attempt\(remaining == 1 ? "" : "s") left.")
            }
        }
    }

    /// One verification, as a value (a typed-throws catch of the boxed error is avoided: it
    /// crashes the Swift 6.3 SIL ownership verifier in generic code).
    private static func attempt<Challenge: MFAContinuation>(_ challenge: Challenge, code: String) async
        -> Result<Challenge.Outcome, SesameError>
    {
        do throws(SesameError) {
            return .success(try await challenge.verify(code: code))
        } catch {
            return .failure(error)
        }
    }

    private static func choose(from methods: [MFAMethod], preferred: MFAMethod?) throws -> MFAMethod {
        if let preferred {
            guard methods.contains(preferred) else {
                throw CLIError(
                    "--mfa-method \(preferred.rawValue) is not available for this account",
                    hint: "Use one of: \(methods.map(\.rawValue).joined(separator: ", ")).")
            }
            return preferred
        }
        if methods.count == 1 { return methods[0] }
        for (index, method) in methods.enumerated() {
            Terminal.progress("  \(index + 1)) \(label(method))")
        }
        let answer = try LoginPrompts.line("Choose a method [1-\(methods.count) or name]: ", what: "method")
        // Compared before subtracting: `number - 1` traps for Int.min.
        if let number = Int(answer), number >= 1, number <= methods.count { return methods[number - 1] }
        if let named = MFAMethod(rawValue: answer.lowercased()), methods.contains(named) { return named }
        throw CLIError(
            "'\(answer)' is not one of the offered methods",
            hint: "Answer with a number or one of: \(methods.map(\.rawValue).joined(separator: ", ")).")
    }

    static func label(_ method: MFAMethod) -> String {
        switch method {
        case .email: "email (code by email)"
        case .sms: "sms (code by text message)"
        case .totp: "totp (authenticator app)"
        case .passkey: "passkey (the software passkey of this config directory)"
        }
    }
}

extension MFAMethod: ExpressibleByArgument {}
