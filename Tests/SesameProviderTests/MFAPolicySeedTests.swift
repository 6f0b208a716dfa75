import Foundation
import StoreTesting
import Testing
@testable import SesameProvider

/// The client MFA policy as the operator sets it: the seed key `mfa_policy` and `ServerAdmin`.
@Suite("Client MFA policy: seed file and admin")
struct MFAPolicySeedTests {
    @Test("seed key mfa_policy and ServerAdmin: validated and stored")
    func seedAndAdmin() async throws {
        let seed = try SeedConfiguration.decode(
            Data(#"{"clients":[{"client_id":"n","redirect_uris":["com.example.n:/cb"],"mfa_policy":"always"}]}"#.utf8),
            source: "seed.json")
        #expect(try seed.clients[0].record(secretHash: nil).mfaPolicy == .always)
        #expect(try ClientSeed(clientID: "d", redirectURIs: ["com.example.d:/cb"]).record(secretHash: nil).mfaPolicy
            == .whenEnrolled)
        do {
            _ = try SeedConfiguration.decode(
                Data(#"{"clients":[{"client_id":"n","redirect_uris":["com.example.n:/cb"],"mfa_policy":"sometimes"}]}"#.utf8),
                source: "seed.json")
            Issue.record("an unknown policy was accepted")
        } catch let error as SeedConfigurationError {
            #expect(error.path == "clients[0].mfa_policy")
            #expect(error.reason.contains("when_enrolled"))
        }

        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let admin = try await ServerAdmin.open(dataDirectory: sandbox.dataDirectory, logger: StoreSamples.logger)
        let (client, _) = try await admin.addClient(
            ClientSpec(clientID: "strict", redirectURIs: ["com.example.strict:/cb"], mfaPolicy: .never))
        #expect(client.mfaPolicy == .never)
        #expect(try await admin.store.client(id: "strict")?.mfaPolicy == .never)
        try await admin.store.close()
    }
}
