import Foundation
import Sesame

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `sesame login --device`: the OAuth 2.0 Device Authorization Grant (RFC 8628) through the
/// SDK's ``SesameClient/signInOnAnotherDevice(scopes:deviceName:)``, for a shell with no browser
/// (an SSH session, a container). The code and the addresses go to stderr, so `--json` keeps
/// stdout for the result.
extension LoginCommand {
    func deviceSignIn(_ client: SesameClient) async throws -> Account {
        let name = deviceName ?? Self.defaultDeviceName()
        for try await state in client.signInOnAnotherDevice(deviceName: name) {
            switch state {
            case .showCode(let prompt):
                for line in Self.instructions(for: prompt, now: Date()) { Terminal.progress(line) }
            case .waiting:
                continue
            case .approved(let account):
                return account
            case .denied:
                throw CLIError(
                    "the sign-in was denied on the other device",
                    hint: "Run `sesame login --device` again for a new code if that was a mistake.")
            case .expired:
                throw CLIError(
                    "the code expired before the sign-in was approved",
                    hint: "Run `sesame login --device` again for a new code, and approve it before the time shown.")
            }
        }
        throw CLIError("the device sign-in ended without an answer", hint: "Run `sesame login --device` again.")
    }

    /// RFC 8628 §3.3: what to open and what to type. The complete URI (§3.3.1) is offered as the
    /// shortcut; the page still shows the code, to compare with the one printed here (§5.4).
    static func instructions(for prompt: DeviceCodePrompt, now: Date) -> [String] {
        let minutes = max(1, Int((prompt.expiresAt.timeIntervalSince(now) / 60).rounded(.up)))
        var lines = [
            "To sign in, open this address on another device (a phone, another computer):",
            "  \(prompt.verificationURI.absoluteString)",
            "and enter the code:",
            "  \(prompt.userCode)",
        ]
        if let complete = prompt.verificationURIComplete {
            lines += [
                "Or open this link, which has the code filled in (check that the page shows \(prompt.userCode)):",
                "  \(complete.absoluteString)",
            ]
        }
        lines.append(
            "The code expires in \(minutes) minute\(minutes == 1 ? "" : "s"). Waiting for the approval ... (Ctrl-C to stop)")
        return lines
    }

    /// `sesame CLI on <hostname>`, cut to the 64 characters the server keeps.
    static func defaultDeviceName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let host = gethostname(&buffer, buffer.count) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let name = host.isEmpty ? "sesame CLI" : "sesame CLI on \(host)"
        let printable = name.filter { character in
            !character.unicodeScalars.contains {
                $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
            }
        }
        return String(printable.prefix(64))
    }
}
