import SesameTesting
import Foundation
import TestSupport
import Testing
@testable import SesameServer

/// The OpenID Foundation's OP certification plans Sesame can run (`vectors/oidc-op-tests.json`):
/// Basic OP and Config OP, each module checked by ``BasicOPChecks``. The Dynamic OP plan needs
/// dynamic client registration and request objects, which Sesame does not offer (discovery has
/// no `registration_endpoint`; `request_parameter_supported` is `false`).
@Suite("OpenID certification plans (Basic OP, Config OP)")
struct CertificationPlanTests {
    static let plans = ["oidcc-basic-certification-test-plan", "oidcc-config-certification-test-plan"]

    /// The module names of ``plans``, as the certification file lists them.
    static func modules() throws -> Set<String> {
        let file = try FixtureFiles.json("vectors/oidc-op-tests.json")
        let plans = try #require(file["plans"] as? [String: Any])
        var names = Set<String>()
        for plan in Self.plans {
            let modules = try #require((plans[plan] as? [String: Any])?["modules"] as? [[String: Any]], "\(plan)")
            names.formUnion(modules.compactMap { $0["module"] as? String })
        }
        return names
    }

    @Test("every module of the plans has a check, and every check names a module of them")
    func coverage() throws {
        let modules = try Self.modules()
        #expect(modules.count >= 38)
        #expect(modules.subtracting(BasicOPChecks.all.keys).sorted() == [], "modules without a check")
        #expect(Set(BasicOPChecks.all.keys).subtracting(modules).sorted() == [], "checks for no module")
    }

    @Test("module", arguments: BasicOPChecks.all.keys.sorted())
    func module(_ name: String) async throws {
        let check = try #require(BasicOPChecks.all[name])
        try await withTestServer { server in try await check(server) }
    }
}
