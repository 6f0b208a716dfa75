import Foundation
import SesameProtocol

/// The claims of a DPoP proof (RFC 9449 §4.2), read with the strict single-pass reader: each
/// must have its type, none may repeat, and `jti`, `htm`, `htu`, `iat` are required.
struct DPoPProofClaims {
    var jti: String
    var htm: String
    var htu: String
    var iat: Date
    var ath: String?
    var nonce: String?

    /// The longest `jti` kept for replay detection; §4.2 asks for at least 96 random bits.
    static let maximumIdentifierLength = 256

    init(_ payload: [UInt8]) throws(DPoPProofRefusal) {
        var jti: String?
        var htm: String?
        var htu: String?
        var iat: Date?
        var ath: String?
        var nonce: String?
        var seen: Set<String> = []
        do {
            try JWTJSONReader.forEachMember(in: payload) { name, value in
                guard ["jti", "htm", "htu", "iat", "ath", "nonce"].contains(name) else { return }
                guard seen.insert(name).inserted else {
                    throw JWTJSONReader.Malformed(reason: "the claim \(name) appears twice")
                }
                switch name {
                case "jti": jti = try value.string(claim: name)
                case "htm": htm = try value.string(claim: name)
                case "htu": htu = try value.string(claim: name)
                case "iat":
                    guard case .number(let seconds) = value else { throw JWTJSONReader.Malformed(reason: "iat is not a number") }
                    iat = try NumericDate(validating: seconds, claim: name).date
                case "ath": ath = try value.string(claim: name)
                default: nonce = try value.string(claim: name)
                }
            }
        } catch let malformed as JWTJSONReader.Malformed {
            throw DPoPProofRefusal(.claims, "the DPoP proof's claims are malformed: \(malformed.reason)")
        } catch {
            throw DPoPProofRefusal(.claims, "the DPoP proof's claims are malformed: \(error)")
        }
        guard let jti, let htm, let htu, let iat else {
            let missing = [("jti", jti == nil), ("htm", htm == nil), ("htu", htu == nil), ("iat", iat == nil)]
                .filter(\.1).map(\.0)
            throw DPoPProofRefusal(.claims, "the DPoP proof lacks the claims \(missing.joined(separator: ", "))")
        }
        guard !jti.isEmpty, jti.utf8.count <= Self.maximumIdentifierLength else {
            throw DPoPProofRefusal(.claims, "jti must have 1 to \(Self.maximumIdentifierLength) characters")
        }
        self.jti = jti
        self.htm = htm
        self.htu = htu
        self.iat = iat
        self.ath = ath
        self.nonce = nonce
    }
}
