import ArgumentParser
import Foundation
import Sesame

/// `--pin` and `--cacert` of `login`, `token` and `curl` (issue #48): certificate pins for the
/// issuer's host (`sha256/<base64>` of a SubjectPublicKeyInfo, as the SDK's
/// ``SesameConfiguration/pinning``; two at least, one a backup key) and the CA certificates a
/// private server's chain leads to. `login` remembers both in the profile; `token` and `curl`
/// use the remembered ones unless given again. With either, requests go through
/// `NIOTransport` (Foundation on Linux has no TLS trust hook).
struct TransportOptions: ParsableArguments {
    @Option(
        name: .customLong("pin"),
        help: ArgumentHelp(
            "Pin the issuer's certificate key: sha256/<base64 of the SubjectPublicKeyInfo's SHA-256> (repeatable; two at least, one a backup key). A server presenting no pinned key gets no request. Remembered by login.",
            valueName: "sha256/…"))
    var pins: [String] = []

    @Option(
        name: .customLong("cacert"),
        help: ArgumentHelp(
            "Also trust the CA certificates of this PEM file (a private CA), beside the system's. Remembered by login.",
            valueName: "file"))
    var caFile: String?

    func validate() throws {
        for pin in pins {
            do { _ = try PublicKeyPin(pin) } catch { throw ValidationError("--pin: \(error.description)") }
        }
        if !pins.isEmpty, Set(pins).count < 2 {
            throw ValidationError(
                "--pin needs at least two different pins: the key in use and a backup key, so the server can change keys without locking you out.")
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw ValidationError("--cacert: cannot read \(caFile).")
        }
    }

    /// The profile's remembered settings, replaced by those given here.
    func applied(to profile: CLIProfile) -> CLIProfile {
        var profile = profile
        if !pins.isEmpty { profile.pins = pins }
        if let caFile { profile.caFile = URL(fileURLWithPath: caFile).standardizedFileURL.path }
        return profile
    }
}

extension CLIProfile {
    /// The pins as the SDK's configuration takes them: for the issuer's host.
    func pinning() throws(CLIError) -> CertificatePinning {
        guard !pins.isEmpty, let host = issuer.host else { return .none }
        do {
            return CertificatePinning(hosts: [PinnedHost(host: host, pins: try pins.map { try PublicKeyPin($0) })])
        } catch {
            throw CLIError("the remembered pins are not valid (\(error))", hint: "Run `sesame login` with --pin again.")
        }
    }
}
