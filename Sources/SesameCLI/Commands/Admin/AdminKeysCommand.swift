import ArgumentParser
import Foundation
import SesameProtocol

/// `sesame admin keys list|rotate|retire`.
struct AdminKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "The signing keys: list, rotate, retire.",
        subcommands: [List.self, Rotate.self, Retire.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The signing keys, newest first.")
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let list = try await AdminAPIClient.open(configDir).get("/admin/api/keys", as: AdminSigningKeyList.self)
                if json.enabled { return try Terminal.json(list) }
                AdminKeysCommand.print(list)
            }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "New keys sign from now on; the old stay published until their tokens expire.",
            discussion: "Needs a sign-in of the last 5 minutes: run `sesame admin login` first if it is older.")
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let list = try await AdminAPIClient.open(configDir).post("/admin/api/keys/rotate", as: AdminSigningKeyList.self)
                if json.enabled { return try Terminal.json(list) }
                Terminal.progress("Rotated.")
                AdminKeysCommand.print(list)
            }
        }
    }

    struct Retire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop signing with one key; it leaves the key set when its tokens have expired, or at once with --now.",
            discussion: """
                --now is for a key believed compromised: every token it signed fails from then on. When the key was \
                its algorithm's signing key, a new one signs from now. Needs a sign-in of the last 5 minutes.
                """)
        @Argument(help: "The key id (kid), from `sesame admin keys list`.") var kid: String
        @Flag(name: .customLong("now"), help: "Remove it from the key set at once.") var immediately = false
        @OptionGroup var configDir: ConfigDirOption
        @OptionGroup var json: JSONOption

        func run() async throws {
            try await reportingErrors {
                let list = try await AdminAPIClient.open(configDir).post(
                    "/admin/api/keys/\(AdminUsersCommand.escape(kid))/retire", json: AdminKeyRetirement(immediately: immediately),
                    as: AdminSigningKeyList.self)
                if json.enabled { return try Terminal.json(list) }
                Terminal.progress(immediately ? "Retired and removed; tokens it signed no longer verify." : "Retired.")
                AdminKeysCommand.print(list)
            }
        }
    }

    static func print(_ list: AdminSigningKeyList) {
        let now = Int(Date().timeIntervalSince1970)
        for key in list.keys {
            let state = key.retiredAt.map { $0 <= now ? "retired" : "signing" } ?? (key.activatesAt > now ? "pending" : "signing")
            Terminal.out("\(key.kid)  \(key.algorithm)  \(state)")
        }
    }
}
