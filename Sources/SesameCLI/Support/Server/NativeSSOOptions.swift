import ArgumentParser
import Foundation
import SesameServer

/// `sesame serve` options for single sign-on across a vendor's apps (docs/native-sso.md).
struct NativeSSOOptions: ParsableArguments {
    @Option(
        name: .customLong("device-session-lifetime"),
        help: ArgumentHelp(
            "Days a single sign-on device session lasts at most; no app's refresh token issued in it outlives it (default 90).",
            valueName: "days"))
    var deviceSessionDays: Double = 90

    @Option(
        name: .customLong("sso-id-token-grace"),
        help: ArgumentHelp(
            "Hours after its expiry a sibling app's ID token is still accepted for single sign-on (default 24; 0: only unexpired ones).",
            valueName: "hours"))
    var idTokenGraceHours: Double = 24

    func policy() throws -> NativeSSOPolicy {
        guard deviceSessionDays > 0, deviceSessionDays <= 3660, deviceSessionDays.isFinite else {
            throw CLIError("--device-session-lifetime must be between 0 and 3660 days", hint: "e.g. --device-session-lifetime 90")
        }
        guard idTokenGraceHours >= 0, idTokenGraceHours <= 24 * 90, idTokenGraceHours.isFinite else {
            throw CLIError("--sso-id-token-grace must be between 0 and 2160 hours", hint: "e.g. --sso-id-token-grace 24")
        }
        return NativeSSOPolicy(
            deviceSessionLifetime: deviceSessionDays * 86_400, idTokenGrace: idTokenGraceHours * 3_600)
    }
}
