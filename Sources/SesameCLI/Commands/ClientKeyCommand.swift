import ArgumentParser
import Foundation
import Sesame

/// `sesame client-key`: prints the public half of the config directory's client key (created on
/// first use, kept in the encrypted store), to register a `private_key_jwt` client with
/// `sesame client add ID --jwks-file FILE`.
struct ClientKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client-key",
        abstract: "Print this app's public key set for private_key_jwt (RFC 7523), creating the key pair on first use.")

    @OptionGroup var identity: AppIdentityOptions
    @OptionGroup var configDir: ConfigDirOption

    func run() async throws {
        try await reportingErrors {
            let session = try ClientSession.open(
                configDir, profile: try identity.profile(configDir.directory), authentication: .privateKeyJWT)
            Terminal.out(try await session.client.clientPublicKeySet())
        }
    }
}
