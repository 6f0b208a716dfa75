import ArgumentParser
import Foundation
import SesameProvider
import SesameStore

extension ClientCommand {
    /// `sesame client role <client_id> <role>`: an operator role for a confidential client, so
    /// its `client_credentials` tokens with the `sesame:admin` scope can drive the admin API from
    /// automation (docs/admin.md).
    struct Role: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Grant a confidential client an operator role for the admin API (automation), or take it away.",
            discussion: """
                The client needs the client_credentials grant and the sesame:admin scope: \
                sesame client add ci-bot --confidential --grant client_credentials --scope sesame:admin; \
                then sesame client role ci-bot helpdesk. `none` takes the role away.
                """)
        @Argument(help: "The client_id.") var clientID: String
        @Argument(help: "admin, helpdesk, auditor or none.") var role: String
        @OptionGroup var dataDir: DataDirOption

        func validate() throws {
            if role != "none", AdminRole(rawValue: role) == nil {
                throw ValidationError("'\(role)' is not a role; use admin, helpdesk, auditor or none")
            }
        }

        func run() async throws {
            try await reportingErrors {
                let granted = AdminRole(rawValue: role)
                try await AdminSession.with(dataDir) { try await $0.setClientRole(granted, clientID: clientID) }
                Terminal.out(granted.map { "\(clientID) is now \($0.rawValue)." } ?? "\(clientID) has no operator role now.")
            }
        }
    }
}
