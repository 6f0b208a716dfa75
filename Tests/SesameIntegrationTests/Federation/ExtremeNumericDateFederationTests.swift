import Foundation
import SesameProtocol
import SesameServer
import TestSupport
import Testing

/// Issue #28: a provider's validly signed ID token whose `exp` or `iat` is a number no date can
/// be (`1e30`, `1e19`, `-1e300`, 2^63, a string) once aborted the whole server in the token
/// exchange. Each is now refused with `federation_token_invalid` naming the claim and the rule,
/// over real HTTP against the server in process, and the server goes on answering.
@Suite("Federation: extreme NumericDates in a provider's ID token")
struct ExtremeNumericDateFederationTests {
    @Test("exp and iat of 1e30, 1e19, -1e300, 2^63, 30 digits, 1e400, strings: refused by name, never a crash; -0 and fractions are dates")
    func extremeTimes() async throws {
        try await SocialProviderTests.withProvider(
            "google", kind: .google, issuer: "https://accounts.google.test", audiences: [SocialProviderTests.web]
        ) { server, google in
            let now = Int(Date().timeIntervalSince1970)
            func token(exp: String, iat: String, sub: String) throws -> String {
                try google.sign(rawPayload: """
                    {"iss":"\(google.issuer)","sub":"\(sub)","aud":"\(SocialProviderTests.web)","exp":\(exp),"iat":\(iat),\
                    "email":"\(sub)@gmail.test","email_verified":true}
                    """)
            }
            let refused = ExtremeNumbers.outOfRange + ExtremeNumbers.numberLikeStrings
            for (index, value) in refused.enumerated() {
                for claim in ["exp", "iat"] {
                    let text = claim == "exp"
                        ? try token(exp: value, iat: "\(now)", sub: "x-\(index)")
                        : try token(exp: "\(now + 3_600)", iat: value, sub: "x-\(index)")
                    let answer = try await FederationTests.exchange(server, token: text, provider: "google")
                    #expect(answer.status == 400, "\(claim) \(value): \(answer.body)")
                    #expect(answer.body["error"] as? String == "invalid_request", "\(claim) \(value): \(answer.body)")
                    #expect(answer.body["error_code"] as? Int == 2014, "\(claim) \(value): \(answer.body)")
                    let description = answer.body["error_description"] as? String ?? ""
                    // 1e400 is no JSON number a Double holds: the payload itself is refused.
                    if value != "1e400" {
                        #expect(description.hasPrefix("\(claim) "), "\(claim) \(value): \(description)")
                        #expect(!description.contains("description unavailable"), "\(description)")
                    }
                }
            }
            let beyond = try await FederationTests.exchange(server, token: try token(exp: "1e30", iat: "\(now)", sub: "y"), provider: "google")
            #expect(
                beyond.body["error_description"] as? String
                    == "exp 1e+30 is beyond year 9999 (the latest NumericDate accepted is 253402300799); the provider's token is invalid")
            let past = try await FederationTests.exchange(
                server, token: try token(exp: "\(now + 3_600)", iat: "-1e300", sub: "y"), provider: "google")
            #expect(
                past.body["error_description"] as? String
                    == "iat -1e+300 is before 1970 (the earliest NumericDate accepted is 0); the provider's token is invalid")

            // -0 is 1970: expired, not a crash. Fractions are NumericDates (RFC 7519 section 2).
            let zero = try await FederationTests.exchange(server, token: try token(exp: "-0", iat: "-0", sub: "z"), provider: "google")
            #expect(zero.status == 400 && zero.body["error_code"] as? Int == 2016, "\(zero.body)")
            let fractional = try await FederationTests.exchange(
                server, token: try token(exp: "\(now + 3_600).75", iat: "\(now - 1).5", sub: "f"), provider: "google")
            #expect(fractional.status == 200, "\(fractional.body)")
            let negativeZeroIssued = try await FederationTests.exchange(
                server, token: try token(exp: "\(now + 3_600)", iat: "-0", sub: "f"), provider: "google")
            #expect(negativeZeroIssued.status == 200, "\(negativeZeroIssued.body)")
            #expect(try await server.running.store.user(login: "x-0@gmail.test") == nil, "no refused token made an account")
        }
    }

    @Test("a JWKS Cache-Control max-age of nan, inf, 1e30 or 400 digits is no max-age: the keys are cached, not refetched for every token")
    func extremeMaxAge() async throws {
        for cacheControl in ["max-age=nan", "max-age=inf", "max-age=-1e30", "max-age=" + String(repeating: "9", count: 400)] {
            try await SocialProviderTests.withProvider(
                "google", kind: .google, issuer: "https://accounts.google.test", audiences: [SocialProviderTests.web]
            ) { server, google in
                google.serveJWKS(cacheControl: cacheControl)
                for _ in 0..<3 {
                    let token = try await google.sign(google.claims(sub: "g-1", audience: SocialProviderTests.web, email: "g@gmail.test"))
                    let answer = try await FederationTests.exchange(server, token: token, provider: "google")
                    #expect(answer.status == 200, "\(cacheControl): \(answer.body)")
                }
                #expect(google.fetches == 1, "\(cacheControl): the JWKS was fetched \(google.fetches) times")
            }
        }
    }
}
