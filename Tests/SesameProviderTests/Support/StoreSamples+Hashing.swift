import StoreTesting
@testable import SesameProvider

extension StoreSamples {
    /// A cheap scrypt cost for tests (production uses ln=15).
    static let hasher = ScryptPasswordHasher(logN: 10)
}
