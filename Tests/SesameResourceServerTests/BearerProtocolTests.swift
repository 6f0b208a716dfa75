import Foundation
import SesameResourceServer
import Testing

/// RFC 6750 §2.1 (reading the header) and §3 (the challenge), without a server.
@Suite("Bearer credentials and challenges (RFC 6750)")
struct BearerProtocolTests {
    @Test("the Authorization header: the scheme is case-insensitive; anything else is missing or invalid_request")
    func header() throws {
        #expect(try BearerCredentials.token(fromAuthorization: "Bearer abc.def.ghi") == "abc.def.ghi")
        #expect(try BearerCredentials.token(fromAuthorization: "bearer   abc.def-_~+/== ") == "abc.def-_~+/==")
        for (header, expected) in [
            (nil, AccessTokenRule.missing), ("Basic dXNlcjpwYXNz", .missing), ("", .missing), ("Bear", .missing),
            ("Bearer", .request), ("Bearer ", .request), ("Bearerabc", .request), ("Bearer a b", .request),
            ("Bearer a\"b", .request), ("Bearer é", .request),
        ] as [(String?, AccessTokenRule)] {
            #expect(throws: AccessTokenError.self, "\(header ?? "nil")") {
                do {
                    _ = try BearerCredentials.token(fromAuthorization: header)
                } catch let error as AccessTokenError {
                    #expect(error.rule == expected, "\(header ?? "nil"): \(error.rule)")
                    throw error
                }
            }
        }
    }

    @Test("challenges: no error without credentials; invalid_token, insufficient_scope with scope; values cannot break out")
    func challenges() {
        #expect(BearerChallenge(refusing: AccessTokenError(.missing, "none"), realm: "api").headerValue == #"Bearer realm="api""#)
        #expect(BearerChallenge(refusing: AccessTokenError(.missing, "none")).headerValue == "Bearer")
        #expect(
            BearerChallenge(refusing: AccessTokenError(.expired, "the token expired")).headerValue
                == #"Bearer error="invalid_token", error_description="the token expired""#)
        let scope = AccessTokenError(.scope, "lacks admin", requiredScopes: ["admin", "write"])
        #expect(
            BearerChallenge(refusing: scope, realm: "api").headerValue
                == #"Bearer realm="api", error="insufficient_scope", error_description="lacks admin", scope="admin write""#)
        let hostile = BearerChallenge(refusing: AccessTokenError(.issuer, "iss is \"x\", \\ \r\nSet-Cookie: a=b é"))
        #expect(!hostile.headerValue.contains("\r") && !hostile.headerValue.contains("\n"))
        #expect(hostile.headerValue.filter { $0 == "\"" }.count == 4, "only the delimiting quotes: \(hostile.headerValue)")
        #expect(hostile.headerValue.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F })
    }

    @Test("statuses and codes follow RFC 6750 §3.1")
    func statuses() {
        let expectations: [(AccessTokenRule, Int, String?)] = [
            (.missing, 401, nil), (.request, 400, "invalid_request"), (.malformed, 401, "invalid_token"),
            (.signature, 401, "invalid_token"), (.expired, 401, "invalid_token"), (.scope, 403, "insufficient_scope"),
            (.keysUnavailable, 503, "temporarily_unavailable"),
        ]
        for (rule, status, code) in expectations {
            let error = AccessTokenError(rule, "x")
            #expect(error.status == status && error.errorCode == code, "\(rule)")
        }
    }
}
