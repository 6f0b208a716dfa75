import Crypto
import Foundation
import SesameProtocol
import TestSupport
import Testing

@testable import Sesame

/// Issue #28 through the SDK: an OpenID provider's numbers (ID token times, `expires_in`, the
/// `Date` header) never trap the app. A time claim that is no NumericDate fails validation
/// under its rule with a message naming the claim; `expires_in` is clamped; a `Date` header out
/// of range is ignored.
@Suite("SDK: extreme numbers from the provider")
struct ExtremeNumberTests {
    let now = Date(timeIntervalSince1970: 1_750_000_000)
    let key = ES256TestKey(kid: "k1")

    /// A token whose payload is `payload`, JSON text as given, signed by ``key``.
    func token(_ payload: String) -> String {
        let header = JWSBuilder.encodeJSON(["alg": "ES256", "kid": "k1", "typ": "JWT"])
        let input = header + "." + Base64URL.encode(Data(payload.utf8))
        return input + "." + Base64URL.encode(try! key.key.signature(for: Data(input.utf8)).rawRepresentation)
    }

    /// The ID token claims with `claim` replaced by `value` (JSON text).
    func payload(_ claim: String, _ value: String) -> String {
        let base = Int(now.timeIntervalSince1970)
        var members = [
            "iss": #""https://id.test""#, "sub": #""user-1""#, "aud": #""app""#, "nonce": #""n""#,
            "exp": "\(base + 300)", "iat": "\(base)", "auth_time": "\(base)", "updated_at": "\(base)",
        ]
        members[claim] = value
        return "{" + members.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    func validate(_ payload: String, maxAge: Int? = 600) async throws -> Result<IDTokenClaims, SesameErrorReason> {
        let keys = try JWKSet.parse(JWKSJSON.data([key.jwk]))
        let expected = IDTokenExpectations(
            issuer: "https://id.test", clientID: "app", nonce: "n", maxAge: maxAge, leeway: 60, now: now)
        return Result { () throws(SesameError) in try IDTokenValidator().validate(token(payload), expected: expected, keys: keys) }
            .mapError(\.reason)
    }

    @Test("exp, iat and auth_time of 1e30, 1e19, -1e300, 2^63, 2^64, 30 digits, strings: the claim's rule fails, naming it; never a trap")
    func outOfRangeTimes() async throws {
        let rules: [String: IDTokenRule] = ["exp": .expired, "iat": .issuedAt, "auth_time": .authTime]
        for (claim, rule) in rules {
            for value in ExtremeNumbers.outOfRange + ExtremeNumbers.numberLikeStrings {
                let result = try await validate(payload(claim, value))
                guard case .failure(.invalidIDToken(let failed, let detail)) = result else {
                    Issue.record("\(claim) \(value): \(result)")
                    continue
                }
                // 1e400 is no number a Double holds: the payload is malformed JSON for the reader.
                if value == "1e400" {
                    #expect(failed == .malformed, "\(claim) \(value): \(detail)")
                    continue
                }
                #expect(failed == rule, "\(claim) \(value): \(detail)")
                #expect(detail.hasPrefix("\(claim) "), "\(claim) \(value): \(detail)")
                #expect(!detail.contains("description unavailable"), "\(detail)")
            }
        }
    }

    @Test("the messages name the claim, the value and the rule")
    func messages() async throws {
        func detail(_ claim: String, _ value: String) async throws -> String {
            guard case .failure(.invalidIDToken(_, let detail)) = try await validate(payload(claim, value)) else { return "" }
            return detail
        }
        #expect(
            try await detail("exp", "1e30")
                == "exp 1e+30 is beyond year 9999 (the latest NumericDate accepted is 253402300799); the provider issued an invalid ID token")
        #expect(
            try await detail("iat", "-1e300")
                == "iat -1e+300 is before 1970 (the earliest NumericDate accepted is 0); the provider issued an invalid ID token")
        #expect(
            try await detail("auth_time", "1e19")
                == "auth_time 1e+19 is beyond year 9999 (the latest NumericDate accepted is 253402300799); the provider issued an invalid ID token")
        #expect(
            try await detail("exp", #""NaN""#)
                == "exp (not a number) is not a NumericDate (RFC 7519 section 2: a JSON number of seconds since 1970); the provider issued an invalid ID token")
    }

    @Test("-0 is 1970 and fractions are NumericDates; an odd updated_at is dropped; claims with any date encode without trapping")
    func inRangeOddities() async throws {
        let base = Int(now.timeIntervalSince1970)
        let zero = try await validate(payload("exp", "-0"))
        guard case .failure(.invalidIDToken(.expired, _)) = zero else {
            Issue.record("exp -0 is 1970, long expired: \(zero)")
            return
        }
        let fractional = try await validate(payload("exp", "\(base + 300).5")).get()
        #expect(fractional.exp == Date(timeIntervalSince1970: Double(base) + 300.5))
        for value in ExtremeNumbers.all where value != "1e400" {
            let claims = try await validate(payload("updated_at", value)).get()
            #expect(claims.updatedAt == nil || value == "0.5" || value == "1.5e9" || value == "-0", "\(value)")
        }

        // The app may build claims with any Date; encoding clamps instead of trapping.
        var claims = IDTokenClaims(iss: "https://id.test", sub: "u", aud: ["app"], exp: Date(timeIntervalSince1970: 1e30))
        claims.iat = Date(timeIntervalSince1970: -1e300)
        claims.authTime = Date(timeIntervalSince1970: .nan)
        claims.updatedAt = .distantFuture
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(claims)) as? [String: Any]
        #expect(json?["exp"] as? Int == 253_402_300_799)
        #expect(json?["iat"] as? Int == 0)
        #expect(json?["auth_time"] as? Int == 0)
    }

    @Test("sign-in through the provider: exp 1e30 or auth_time 1e19 fails sign-in with the rule, nothing stored; extreme expires_in and Date headers sign in")
    func signIn() async throws {
        let clock = ManualClock(now)
        for (claim, value, rule) in [("exp", 1e30, IDTokenRule.expired), ("auth_time", 1e19, .authTime), ("iat", -1e300, .issuedAt)] {
            let provider = FakeProvider(clock: clock)
            provider.with { $0.extraClaims = [claim: value] }
            let client = makeClient(provider, clock: clock)
            do {
                _ = try await client.signIn(with: headlessAgent(provider))
                Issue.record("\(claim) \(value) signed in")
            } catch {
                guard case .invalidIDToken(let failed, let detail) = error.reason else {
                    Issue.record("\(claim): \(error)")
                    continue
                }
                #expect(failed == rule && detail.hasPrefix("\(claim) "), "\(detail)")
            }
            #expect(await client.currentAccount() == nil)
        }
        let lifetimes: [Any] = [1e30, 9_223_372_036_854_775_807 as Int, -5, 3600.9, "NaN", "1e30", "-0", ["x"]]
        for lifetime in lifetimes {
            let provider = FakeProvider(clock: clock)
            provider.with { $0.accessTokenLifetime = lifetime }
            let client = makeClient(provider, clock: clock)
            _ = try await client.signIn(with: headlessAgent(provider))
            #expect(await client.currentAccount() != nil, "expires_in \(lifetime)")
        }
        for header in [
            "Sun, 06 Nov 9223372036854775807 08:49:37 GMT", "Sun, 99999999999999999999 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 9223372036854775807:49:37 GMT", "Sun, -1 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 0000 08:49:37 GMT",
        ] {
            let provider = FakeProvider(clock: clock)
            provider.with { $0.responseHeaders = ["Date": header] }
            let client = makeClient(provider, clock: clock)
            _ = try await client.signIn(with: headlessAgent(provider))
            #expect(await client.clockOffset.seconds == 0, "\(header)")
        }
    }

    @Test("HTTP Date header: fields out of their grammar's range are no date, not a number for the calendar")
    func httpDate() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        for header in [
            "Sun, 06 Nov 9223372036854775807 08:49:37 GMT", "Sun, 99999999999999999999 Nov 1994 08:49:37 GMT",
            "Sun, 9223372036854775807 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 9223372036854775807:49:37 GMT",
            "Sun, 06 Nov 1994 08:-9223372036854775808:37 GMT", "Sun, -1 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 0000 08:49:37 GMT", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
        ] {
            #expect(HTTPDate.parse(header) == nil, "\(header)")
        }
    }
}
