import StoreTesting
@testable import SesameServer

extension StoreSamples {
    /// A cheap scrypt cost for tests (production uses ln=15; docs/testing.md says why 4).
    static let hasher = ScryptPasswordHasher(logN: 4)
}
