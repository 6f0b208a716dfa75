import Foundation
import Testing

@testable import Sesame
import SesameJOSE

/// The hand-rolled claims reader must accept exactly what a JSON parser accepts (minus duplicate
/// member names, which it rejects on purpose) and read the same claims as `JSONDecoder`.
@Suite("JWT JSON reader")
struct JWTJSONReaderTests {
    static let samples: [String] = [
        #"{"iss":"https://id.example.com","sub":"248289761001","aud":"app","exp":1311281970,"iat":1311280970,"nonce":"n-0S6_WzA2Mj"}"#,
        #"{"iss":"https://id.example.com","sub":"a","aud":["app","other"],"azp":"app","exp":1.5e9,"auth_time":1311280969.5,"acr":"urn:sesame:acr:mfa","amr":["pwd","otp","mfa"]}"#,
        #" { "iss" : "i" , "sub" : "s\u00e9\ud83d\ude00\/\"\\\n\t" , "aud" : [ ] , "name" : 42 , "email_verified" : true , "address" : {"a":[1,{"b":null}]} , "x" : [1,"two",false] } "#,
        #"{"iss":"i","sub":"s","aud":"a","nonce":null,"amr":null,"updated_at":"not a number","picture":null,"locale":"nb-NO"}"#,
        #"{}"#,
        #"{"iss":"i","sub":"s","aud":"a","exp":-0.0,"iat":0,"email":"a@b.c","given_name":"Ærlig","family_name":"😀"}"#,
    ]

    @Test("reads the same claims as JSONDecoder", arguments: samples)
    func sameAsJSONDecoder(_ json: String) throws {
        let fast = try IDTokenClaims(jwtPayload: Array(json.utf8))
        let reference = try JSONDecoder().decode(IDTokenClaims.self, from: Data(json.utf8))
        #expect(fast == reference)
    }

    static let malformed: [String] = [
        #"{"iss":"a","iss":"b"}"#,  // duplicate claim names (RFC 7519 §4)
        #"{"iss":"a",}"#, #"{"iss":"a""#, #"{"iss" "a"}"#, #"["iss"]"#, #""iss""#, "",
        #"{"iss":"a"} x"#, #"{"iss":"a\u12"}"#, #"{"iss":"\ud800"}"#, #"{"iss":"\udc00x"}"#,
        "{\"iss\":\"a\u{01}\"}", #"{"iss":"\x"}"#, #"{"exp":01}"#, #"{"exp":1.}"#, #"{"exp":.5}"#,
        #"{"exp":1e}"#, #"{"exp":+1}"#, #"{"exp":NaN}"#, #"{"exp":tru}"#, #"{"x":[1,]}"#,
        #"{"x":{"a":1,}}"#, #"{"x":{"a"}}"#, #"{"x":[1 2]}"#,
        "{\"x\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}",
        // Right grammar, wrong claim types (the Decodable initializer rejects these too).
        #"{"iss":1}"#, #"{"aud":[1]}"#, #"{"exp":"1"}"#, #"{"amr":"pwd"}"#, #"{"nonce":true}"#,
    ]

    @Test("rejects malformed JSON and wrongly typed claims", arguments: malformed)
    func rejects(_ json: String) {
        #expect(throws: (any Error).self) { try IDTokenClaims(jwtPayload: Array(json.utf8)) }
    }

    @Test("rejects invalid UTF-8 inside strings")
    func rejectsInvalidUTF8() {
        let bytes = Array(#"{"iss":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: (any Error).self) { try IDTokenClaims(jwtPayload: bytes) }
    }

    @Test("never accepts what JSONSerialization rejects (10,000 random mutations)")
    func mutationsNeverAcceptInvalidJSON() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(#"{}[]":,\ u0123456789eE+-.tfnrl"a"#.utf8) + [0x00, 0x1F, 0xC3, 0xFF]
        var accepted = 0
        for _ in 0..<10_000 {
            var bytes = Array(Self.samples[Int.random(in: 0..<Self.samples.count, using: &generator)].utf8)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: 0...bytes.count, using: &generator)
                let byte = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes.insert(byte, at: position)
                case 1 where position < bytes.count: bytes.remove(at: position)
                default: if position < bytes.count { bytes[position] = byte }
                }
            }
            var sawMember = false
            guard (try? JWTJSONReader.forEachMember(in: bytes) { _, _ in sawMember = true }) != nil else {
                continue
            }
            accepted += 1
            let parsed = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            #expect(parsed is [String: Any], "accepted invalid JSON: \(String(decoding: bytes, as: UTF8.self))")
            _ = sawMember
        }
        #expect(accepted > 100)
    }

    @Test("JOSE header: alg, kid, typ, crit with their types")
    func header() throws {
        let header = try JOSEHeader(json: Array(#"{"alg":"RS256","kid":"k1","typ":"JWT","crit":["exp"],"x5t":{"a":1}}"#.utf8))
        #expect(header.alg == "RS256" && header.kid == "k1" && header.typ == "JWT" && header.crit == ["exp"])
        #expect(throws: (any Error).self) { try JOSEHeader(json: Array(#"{"alg":["RS256"]}"#.utf8)) }
        #expect(throws: (any Error).self) { try JOSEHeader(json: Array(#"{"alg":"RS256","alg":"none"}"#.utf8)) }
    }
}
