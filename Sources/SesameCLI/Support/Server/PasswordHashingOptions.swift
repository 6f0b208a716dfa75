import ArgumentParser
import Foundation
import SesameProvider
import SesameServer

/// `--scrypt-cost` of `sesame serve` and of `sesame user add` (which hashes offline): the cost of
/// the memory-hard hash (scrypt, RFC 7914, ``ScryptPasswordHasher``) of new passwords and of
/// client secrets an operator chose, as Keycloak's password policy sets its hash iterations.
/// Each hash records its own cost and is verified at it; a password hash weaker than the
/// server's cost is made again at the user's next sign-in (``CredentialVerifier``).
struct PasswordHashingOptions: ParsableArguments {
    /// The costs an operator may choose: 2^10 (1 MiB, for tests and development) to 2^18
    /// (256 MiB per hash: above it a few concurrent sign-ins exhaust a server's memory).
    static let costs = 10...18

    @Option(
        name: .customLong("scrypt-cost"),
        help: ArgumentHelp(
            "scrypt's cost for new password and client-secret hashes, as log2 N (default 15: 32 MiB and tens of milliseconds per hash; 10 to 18). Below 15 only for tests and development.",
            valueName: "log2-N"))
    var cost = ScryptPasswordHasher.interactive.logN

    /// The hasher, or which value is out of range.
    func hasher() throws -> ScryptPasswordHasher {
        guard Self.costs.contains(cost) else {
            throw CLIError(
                "--scrypt-cost must be between \(Self.costs.lowerBound) and \(Self.costs.upperBound) (log2 of scrypt's N)",
                hint: "Leave it out for the default 15, or e.g. --scrypt-cost 16 for 64 MiB per hash.")
        }
        return ScryptPasswordHasher(logN: cost)
    }
}
