import Foundation
import Testing
@testable import SesameProtocol

/// ``ClientDataReader``, the strict reader of `clientDataJSON` (WebAuthn §5.8.1, RFC 8259):
/// what it accepts it reads as Foundation's JSON decoder does; what is not well-formed JSON of
/// that shape it refuses; random damage never crashes it.
@Suite("clientDataJSON reader")
struct ClientDataReaderTests {
    static let valid: [String] = [
        #"{"type":"webauthn.get","challenge":"abc","origin":"https://example.com","crossOrigin":false}"#,
        #" { "origin" : "https://example.com" , "type" : "webauthn.create" , "challenge" : "x-_1" } "#,
        #"{"type":"webauthn.get","challenge":"c","origin":"https://e.com","crossOrigin":true,"topOrigin":"https://top.example"}"#,
        #"{"type":"webauthn.get","challenge":"c","origin":"https://e.com","other_keys_can_be_added_here":"do not compare clientDataJSON against a template. See https://goo.gl/yabPex"}"#,
        #"{"type":"webauthn.get","challenge":"c","origin":"https://e.com","x":{"a":[1,-2.5e3,0,0.5,true,false,null,{"b":[]}]},"y":[],"z":{}}"#,
        #"{"type":"webauthn.\u0067et","challenge":"\"\\\/\b\f\n\r\t","origin":"https://\u00e9.example\ud83d\ude00"}"#,
        "{\"type\":\"webauthn.get\",\"challenge\":\"c\",\"origin\":\"https://bücher.example\"}",
    ]

    @Test("reads what Foundation's decoder reads, member by member", arguments: valid)
    func agreesWithFoundation(_ text: String) throws {
        let data = Data(text.utf8)
        let ours = try #require(CollectedClientData.parse(data), "refused: \(text)")
        #expect(ours == (try JSONDecoder().decode(CollectedClientData.self, from: data)))
        #expect(CollectedClientData.parse(Data([0xEF, 0xBB, 0xBF]) + data) == ours, "a leading BOM is stripped")
    }

    static let invalid: [(String, [UInt8])] = [
        ("trailing comma", Array(#"{"type":"t","challenge":"c","origin":"o",}"#.utf8)),
        ("unterminated string", Array(#"{"type":"t","challenge":"c","origin":"o}"#.utf8)),
        ("raw control character", Array("{\"type\":\"t\u{01}\",\"challenge\":\"c\",\"origin\":\"o\"}".utf8)),
        ("not UTF-8", Array(#"{"type":"t","challenge":""#.utf8) + [0xFF, 0xFE] + Array(#"","origin":"o"}"#.utf8)),
        ("lone surrogate", Array(#"{"type":"\ud800","challenge":"c","origin":"o"}"#.utf8)),
        ("lone low surrogate", Array(#"{"type":"\udc00","challenge":"c","origin":"o"}"#.utf8)),
        ("repeated member", Array(#"{"type":"t","type":"u","challenge":"c","origin":"o"}"#.utf8)),
        ("leading zero", Array(#"{"type":"t","challenge":"c","origin":"o","n":01}"#.utf8)),
        ("bad number", Array(#"{"type":"t","challenge":"c","origin":"o","n":1.}"#.utf8)),
        ("bare minus", Array(#"{"type":"t","challenge":"c","origin":"o","n":-}"#.utf8)),
        ("trailing bytes", Array(#"{"type":"t","challenge":"c","origin":"o"}x"#.utf8)),
        ("not an object", Array(#"["type","t"]"#.utf8)),
        ("missing origin", Array(#"{"type":"t","challenge":"c"}"#.utf8)),
        ("type not a string", Array(#"{"type":1,"challenge":"c","origin":"o"}"#.utf8)),
        ("crossOrigin not a boolean", Array(#"{"type":"t","challenge":"c","origin":"o","crossOrigin":"yes"}"#.utf8)),
        ("bad escape", Array(#"{"type":"\x","challenge":"c","origin":"o"}"#.utf8)),
        ("short unicode escape", Array(#"{"type":"\u12","challenge":"c","origin":"o"}"#.utf8)),
        ("too deep", Array(#"{"type":"t","challenge":"c","origin":"o","d":"#.utf8) + Array(repeating: UInt8(ascii: "["), count: 17) + Array(repeating: UInt8(ascii: "]"), count: 17) + [UInt8(ascii: "}")]),
        ("empty", []),
    ]

    @Test("refuses what is not well-formed client data, by rule", arguments: invalid.map(\.0))
    func refuses(_ name: String) throws {
        let bytes = try #require(Self.invalid.first { $0.0 == name }?.1)
        #expect(CollectedClientData.parse(Data(bytes)) == nil, "\(name) was accepted")
    }

    @Test("20,000 randomly damaged inputs: no crash; whatever is accepted, Foundation reads the same")
    func fuzz() throws {
        var generator = SystemRandomNumberGenerator()
        let seeds = Self.valid.map { Array($0.utf8) }
        var accepted = 0
        for round in 0..<20_000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                guard !bytes.isEmpty else { break }
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[position] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: position)
                default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: position)
                }
            }
            let data = Data(bytes)
            if let ours = CollectedClientData.parse(data) {
                accepted += 1
                #expect(ours == (try? JSONDecoder().decode(CollectedClientData.self, from: data)), "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(accepted > 0, "some damage leaves valid JSON (inside a string, say)")
    }
}
