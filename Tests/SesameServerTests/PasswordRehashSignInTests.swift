import Foundation
import SesameProvider
import SesameTesting
import Testing

/// A server whose scrypt cost was raised (`sesame serve --scrypt-cost`) hashes a user's
/// password again at the hosted sign-in, the only moment it has the password: the stored hash
/// then records the server's cost and still verifies.
@Suite("A raised scrypt cost reaches a user at sign-in")
struct PasswordRehashSignInTests {
    @Test("alice's hash at ln=4 is ln=5 after she signs in on a server at ln=5, and she signs in again with it")
    func rehashedAtSignIn() async throws {
        let server5 = ScryptPasswordHasher(logN: 5)
        try await withTestServer(passwordHasher: server5) { server in
            let before = try #require(try await server.store.user(login: Fixtures.username)?.passwordHash)
            #expect(before.hasPrefix("$scrypt$ln=4,"), "the fixture's hash: \(before)")

            _ = try await OAuthFlow(browser: server.client()).tokens()
            let after = try #require(try await server.store.user(login: Fixtures.username)?.passwordHash)
            #expect(after.hasPrefix("$scrypt$ln=5,"), "\(after)")
            #expect(server5.verify(Fixtures.password, against: after))

            let (again, _) = try await OAuthFlow(browser: server.client()).tokens()
            #expect(again.refreshToken != nil)
            #expect(try await server.store.user(login: Fixtures.username)?.passwordHash == after, "hashed once")
        }
    }
}
