import Crypto
import Foundation
import Logging
import Sesame
import SesameProtocol
import SesameServer
import SesameTesting
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Helpers for the native sign-in and account API tests: users, SDK clients, the server's
/// outbox, RFC 6238 codes and JWT payloads, all against the real in-process server.
extension IntegrationServer {
    /// A user with a verified email (unless told otherwise) and a random password.
    struct User: Sendable {
        var username: String
        var email: String
        var password: String
        var sub: String
    }

    func addUser(_ username: String, emailVerified: Bool = true) async throws -> User {
        let admin = ServerAdmin(
            store: running.store, hasher: TestServer.hasher, keyRing: running.keyRing)
        let password = "pw-\(UUID().uuidString)"
        let email = "\(username)@example.com"
        let record = try await admin.addUser(
            username: username, email: email, password: password, emailVerified: emailVerified)
        return User(username: username, email: email, password: password, sub: record.id)
    }

    /// An SDK client of the test app (or of `clientID`) with an in-memory store and real HTTP.
    func sdk(
        transport: any HTTPTransport = URLSessionTransport(), clientID: String? = nil,
        dpop: SesameConfiguration.DPoPBinding = .off
    ) -> SesameClient {
        var logger = Logger(label: "sesame.it.native")
        logger.logLevel = .error
        var configuration = configuration()
        if let clientID { configuration.clientID = clientID }
        configuration.dpop = dpop
        return SesameClient(
            configuration: configuration, store: InMemoryCredentialStore(), transport: transport,
            clock: SystemClock(), logger: logger, retryPolicy: .none)
    }

    var outbox: OutboxMessageSender {
        get throws {
            guard let outbox = running.messageSender as? OutboxMessageSender else {
                throw FixtureError("the server's message sender is not the outbox")
            }
            return outbox
        }
    }

    /// The 6-digit code of the latest message to `recipient` (email address or phone number).
    func latestCode(to recipient: String, purpose: String? = nil) async throws -> String {
        let messages = try await outbox.messages(to: recipient, purpose: purpose)
        guard let body = messages.last?.body, let code = Self.sixDigits(in: body) else {
            throw FixtureError("no code was sent to \(recipient) (\(messages.count) messages)")
        }
        return code
    }

    /// How many messages went to `recipient`.
    func messageCount(to recipient: String) async throws -> Int {
        try await outbox.messages(to: recipient).count
    }

    static func sixDigits(in text: String) -> String? {
        var run = ""
        for character in text + " " {
            if character.isASCII, character.isNumber {
                run.append(character)
            } else {
                if run.count == 6 { return run }
                run = ""
            }
        }
        return nil
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Signs `user` in with the password; fails when MFA is asked for.
func passwordLogin(_ client: SesameClient, _ user: IntegrationServer.User) async throws -> Account {
    switch try await client.login(username: user.username, password: user.password) {
    case .signedIn(let account): return account
    case .mfaRequired(let challenge):
        throw FixtureError("unexpected MFA (\(challenge.methods)) for \(user.username)")
    }
}

/// Expects the MFA continuation of a login.
func mfaLogin(_ client: SesameClient, _ user: IntegrationServer.User) async throws -> MFAChallenge {
    switch try await client.login(username: user.username, password: user.password) {
    case .signedIn: throw FixtureError("\(user.username) signed in without the expected second factor")
    case .mfaRequired(let challenge): return challenge
    }
}

/// RFC 6238 TOTP (HMAC-SHA-1, 6 digits, 30 s steps; RFC 4226 §5.3 dynamic truncation) for the
/// test to play the authenticator app.
enum TestTOTP {
    static func code(secret base32: String, step: Int64) throws -> String {
        guard let key = decodeBase32(base32) else { throw FixtureError("the TOTP secret is not base32") }
        var counter = UInt64(step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        let value = binary % 1_000_000
        let text = String(value)
        return String(repeating: "0", count: 6 - text.count) + text
    }

    /// The current time step.
    static func currentStep(_ now: Date = Date()) -> Int64 { Int64(now.timeIntervalSince1970) / 30 }

    /// A step the server accepts now after `used` was accepted: the one after `used` while that
    /// is still in the ±1 window, else the current one. Computed at the moment of use, so a slow
    /// run that crossed a 30 s boundary (or several) since `used` does not fail.
    static func nextStep(after used: Int64, now: Date = Date()) -> Int64 { max(used + 1, currentStep(now)) }

    /// RFC 4648 §6 base32 (no padding needed).
    static func decodeBase32(_ text: String) -> Data? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var buffer: UInt32 = 0
        var bits = 0
        var out = Data()
        for character in text.uppercased() where character != "=" {
            guard let index = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | UInt32(index)
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt32(bits)) & 0xff))
            }
        }
        return out
    }
}

/// Real HTTP that keeps the token endpoint's JSON answers, to check what the server issued
/// (e.g. no refresh token on re-authentication).
final class TokenResponseRecorder: HTTPTransport {
    private let inner = URLSessionTransport()
    private let bodies = Mutex<[Data]>([])

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await inner.send(request)
        if request.url?.path == "/token" { bodies.withLock { $0.append(data) } }
        return (data, response)
    }

    /// The latest token endpoint answer as a JSON object.
    func last() throws -> [String: Any] {
        guard let data = bodies.withLock({ $0.last }),
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw FixtureError("no token response was recorded") }
        return object
    }
}
