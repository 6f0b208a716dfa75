import ArgumentParser
import Foundation
import SesameServer

/// `sesame serve` options for how long sign-ins wait: the authorization request held while a
/// person signs in on the hosted pages (``PendingAuthorizations``), and the device authorization
/// grant's codes and polling (RFC 8628 §3.2, ``DeviceAuthorizationPolicy``; a client can have
/// its own, `sesame client add --device-code-lifetime --device-poll-interval`).
struct SignInTimingOptions: ParsableArguments {
    @Option(
        name: .customLong("sign-in-timeout"),
        help: ArgumentHelp(
            "How long a browser sign-in may take on the hosted pages, in seconds, before the person starts again from the app (default 1800).",
            valueName: "seconds"))
    var signInTimeout = Int(PendingAuthorizations.defaultLifetime)

    @Option(
        name: .customLong("device-code-lifetime"),
        help: ArgumentHelp(
            "How long a device code and its user code stay valid, in seconds (RFC 8628 expires_in; default 600).",
            valueName: "seconds"))
    var deviceCodeLifetime = Int(DeviceAuthorizationPolicy().lifetime)

    @Option(
        name: .customLong("device-poll-interval"),
        help: ArgumentHelp(
            "How often devices may poll the token endpoint, in seconds (RFC 8628 interval; default 5).",
            valueName: "seconds"))
    var devicePollInterval = DeviceAuthorizationPolicy().interval

    /// Applies the options to `configuration`, or says which one is out of range.
    func apply(to configuration: inout ServerConfiguration) throws {
        guard (60...86_400).contains(signInTimeout) else {
            throw CLIError("--sign-in-timeout must be between 60 and 86400 seconds", hint: "e.g. --sign-in-timeout 1800")
        }
        guard ClientValidation.deviceCodeLifetimes.contains(deviceCodeLifetime) else {
            throw CLIError(
                "--device-code-lifetime must be between \(ClientValidation.deviceCodeLifetimes.lowerBound) and \(ClientValidation.deviceCodeLifetimes.upperBound) seconds",
                hint: "e.g. --device-code-lifetime 600")
        }
        guard ClientValidation.devicePollIntervals.contains(devicePollInterval) else {
            throw CLIError(
                "--device-poll-interval must be between \(ClientValidation.devicePollIntervals.lowerBound) and \(ClientValidation.devicePollIntervals.upperBound) seconds",
                hint: "e.g. --device-poll-interval 5")
        }
        configuration.signInTimeout = TimeInterval(signInTimeout)
        configuration.deviceAuthorization.lifetime = TimeInterval(deviceCodeLifetime)
        configuration.deviceAuthorization.interval = devicePollInterval
    }
}
