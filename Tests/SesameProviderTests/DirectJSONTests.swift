import Foundation
import JWTKit
import SesameProtocol
import Testing
@testable import SesameProvider

/// The token endpoint writes its JWT payloads and its response with ``JSONObjectWriter`` instead
/// of `JSONEncoder` (issue #50). Each must be the same JSON value as the `Encodable`
/// conformance's, and read back to the same record, whatever the strings hold.
@Suite("Direct JSON: token payloads and the token response")
struct DirectJSONTests {
    /// Strings that need every kind of escape (RFC 8259 §7), and some that need none.
    static let awkward = [
        "plain", "", "quote \" and backslash \\ and slash /", "line\nfeed\rreturn\ttab",
        String(decoding: (0..<32).map { UInt8($0) }, as: UTF8.self), "é ü 日本 🙂 \u{2028}\u{2029} \u{7F}",
        String(repeating: "long ", count: 2_000),
    ]

    @Test("an access token's payload: same JSON value as JSONEncoder's, for every shape of its optional members")
    func accessToken() throws {
        for (index, text) in Self.awkward.enumerated() {
            var claims = AccessTokenClaims(
                iss: "https://id.example/" + text, sub: text, aud: AudienceClaim(value: ["https://api.example", text]),
                exp: Int.max, iat: Int.min, jti: text, clientID: "app" + text, scope: "openid " + text,
                authTime: 1_700_000_000, acr: text, amr: ["pwd", text], sid: text, fid: text, userinfoClaims: [text],
                cnf: index % 2 == 0 ? TokenConfirmation(jkt: text) : TokenConfirmation(certificateThumbprint: text),
                gty: text)
            try Self.expectSameJSON(claims)
            #expect(try JSONDecoder().decode(AccessTokenClaims.self, from: Data(#require(claims.directJSON()))) == claims)
            claims.aud = AudienceClaim(value: [text])
            claims.authTime = nil
            claims.acr = nil
            claims.amr = nil
            claims.sid = nil
            claims.fid = nil
            claims.userinfoClaims = nil
            claims.cnf = nil
            claims.gty = nil
            try Self.expectSameJSON(claims)
            #expect(try JSONDecoder().decode(AccessTokenClaims.self, from: Data(#require(claims.directJSON()))) == claims)
        }
    }

    @Test("an ID token's payload: same JSON value as JSONEncoder's; with user claims it is left to JSONEncoder")
    func idToken() throws {
        for text in Self.awkward {
            var claims = IDTokenClaims(
                iss: "https://id.example", sub: text, aud: "app", azp: "app", exp: 2_000_000_000, iat: 0,
                authTime: -1, nonce: text, acr: text, amr: [text, text], sid: text, atHash: text, dsHash: text)
            try Self.expectSameJSON(claims)
            claims.nonce = nil
            claims.amr = []
            claims.atHash = nil
            claims.dsHash = nil
            try Self.expectSameJSON(claims)
            claims.userClaims = StandardClaims(sub: text)
            #expect(claims.directJSON() == nil)
        }
    }

    @Test("the token response: same JSON value as JSONEncoder's, and the SDK reads it back unchanged")
    func tokenResponse() throws {
        for text in Self.awkward {
            let full = TokenResponse(
                accessToken: text, tokenType: "DPoP", expiresIn: 0, refreshToken: text, idToken: text, scope: text,
                issuedTokenType: text, deviceSecret: text)
            for response in [full, TokenResponse(accessToken: text)] {
                let direct = response.directJSON()
                #expect(try Self.jsonValue(direct) == Self.jsonValue(Array(JSONEncoder().encode(response))))
                #expect(try JSONDecoder().decode(TokenResponse.self, from: Data(direct)) == response)
            }
        }
    }

    private static func expectSameJSON(_ payload: some DirectJSONPayload, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let direct = try #require(payload.directJSON(), sourceLocation: sourceLocation)
        let reference = Array(try JWTJSON.encoder().encode(payload))
        #expect(try jsonValue(direct) == jsonValue(reference), sourceLocation: sourceLocation)
    }

    /// The parsed JSON, compared as Foundation objects (member order does not matter).
    private static func jsonValue(_ bytes: [UInt8]) throws -> NSDictionary {
        try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary)
    }
}
