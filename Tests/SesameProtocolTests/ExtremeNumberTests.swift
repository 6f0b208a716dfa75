import Foundation
import SesameProtocol
import TestSupport
import Testing

/// Issue #28 at the wire-model layer: ``NumericDate`` (RFC 7519 §2) and `expires_in` (RFC 6749
/// §5.1) take every extreme number as a value or a named refusal, never a trap; CBOR integers
/// beyond `Int64` are refused by the COSE key reader.
@Suite("Wire models: extreme numbers")
struct ExtremeNumberTests {
    struct Claims: Decodable {
        var exp: NumericDate
    }

    func decode(_ value: String) -> Result<NumericDate, any Error> {
        Result { try JSONDecoder().decode(Claims.self, from: Data(#"{"exp":\#(value)}"#.utf8)).exp }
    }

    @Test("NumericDate: 0 … 253402300799, integer or fraction; -0 is 0; everything else a NumericDateError naming claim and rule")
    func numericDate() throws {
        #expect(try decode("0").get().secondsSince1970 == 0)
        let negativeZero = try decode("-0").get()
        #expect(negativeZero.secondsSince1970 == 0 && negativeZero.secondsSince1970.sign == .plus)
        #expect(try decode("253402300799").get().seconds == 253_402_300_799)
        #expect(try decode("1750000000.75").get().seconds == 1_750_000_000)
        #expect(try decode("1750000000.75").get().date == Date(timeIntervalSince1970: 1_750_000_000.75))
        for value in ExtremeNumbers.outOfRange + ExtremeNumbers.numberLikeStrings + ["253402300800", "-0.5", "true", "{}"] {
            guard case .failure(let error) = decode(value) else {
                Issue.record("\(value) accepted")
                continue
            }
            // 1e400 overflows a Double: Foundation refuses the document before NumericDate sees it.
            guard value != "1e400" else { continue }
            let refusal = try #require(error as? NumericDateError, "\(value): \(error)")
            #expect(refusal.claim == "exp", "\(value)")
            #expect(refusal.description.hasPrefix("exp "), "\(refusal)")
            #expect(!refusal.description.contains("description unavailable"))
        }
        #expect(
            String(describing: try #require(decode("1e30").failure))
                == "exp 1e+30 is beyond year 9999 (the latest NumericDate accepted is 253402300799)")
        #expect(
            String(describing: try #require(decode("-1e300").failure))
                == "exp -1e+300 is before 1970 (the earliest NumericDate accepted is 0)")
        #expect(throws: NumericDateError(claim: "iat", rule: .notFinite, value: "nan")) {
            try NumericDate(validating: .nan, claim: "iat")
        }
        #expect(throws: NumericDateError(claim: "iat", rule: .notFinite, value: "inf")) {
            try NumericDate(validating: .infinity, claim: "iat")
        }
        #expect(NumericDate(clamping: Date(timeIntervalSince1970: 1e30)).seconds == 253_402_300_799)
        #expect(NumericDate(clamping: Date(timeIntervalSince1970: -1e300)).seconds == 0)
        #expect(NumericDate(clamping: Date(timeIntervalSince1970: .nan)).seconds == 0)
        #expect(String(data: try JSONEncoder().encode(try decode("1.5").get()), encoding: .utf8) == "1.5")
        #expect(String(data: try JSONEncoder().encode(try decode("-0").get()), encoding: .utf8) == "0")
    }

    @Test("expires_in: clamped to 0 … one year and rounded down; NaN-like strings and non-numbers are absent")
    func expiresIn() throws {
        func lifetime(_ value: String) throws -> Int? {
            try JSONDecoder().decode(
                TokenResponse.self, from: Data(#"{"access_token":"a","token_type":"Bearer","expires_in":\#(value)}"#.utf8)
            ).expiresIn
        }
        let year = TokenResponse.maximumExpiresIn
        let expected: [String: Int?] = [
            "3600": 3600, #""3600""#: 3600, "3600.9": 3600, "-0": 0, "-1": 0, "-1e300": 0, "1e30": year, "1e19": year,
            "9223372036854775807": year, "9223372036854775808": year, "18446744073709551616": year,
            "123456789012345678901234567890": year, #""1e30""#: year, #""99999999999999999999""#: year,
            #""NaN""#: nil, #""Infinity""#: nil, #""-inf""#: nil, "true": nil, "[1]": nil, "null": nil, #""soon""#: nil,
        ]
        for (value, want) in expected {
            #expect(try lifetime(value) == want, "expires_in \(value)")
        }
        // A number no Double holds is no lifetime, or Foundation refuses the document; never a trap.
        let overflow = try? lifetime("1e400")
        #expect(overflow == nil || overflow == .some(nil) || overflow == .some(year))
    }

    @Test("userinfo updated_at: a NumericDate rounded down; out of range or not a number is dropped, the other claims kept")
    func updatedAt() throws {
        func claims(_ value: String) throws -> StandardClaims {
            try JSONDecoder().decode(StandardClaims.self, from: Data(#"{"sub":"u","email":"a@b.test","updated_at":\#(value)}"#.utf8))
        }
        #expect(try claims("1750000000").updatedAt == 1_750_000_000)
        #expect(try claims("1.5e9").updatedAt == 1_500_000_000)
        #expect(try claims("1750000000.9").updatedAt == 1_750_000_000)
        #expect(try claims("-0").updatedAt == 0)
        for value in ExtremeNumbers.outOfRange + ExtremeNumbers.numberLikeStrings where value != "1e400" {
            let decoded = try claims(value)
            #expect(decoded.updatedAt == nil && decoded.email == "a@b.test", "updated_at \(value)")
        }
    }

    @Test("COSE keys: integers beyond Int64 for kty, alg or crv are refused, not converted")
    func coseIntegers() throws {
        // {1: 2^64-1, 3: -2^64}: major type 0 and 1 with 8-byte arguments.
        let huge: [UInt8] = [0xA2, 0x01, 0x1B] + Array(repeating: 0xFF, count: 8) + [0x03, 0x3B] + Array(repeating: 0xFF, count: 8)
        let item = try CBORDecoder().decode(Data(huge))
        #expect(item[.unsigned(1)]?.int == nil)
        #expect(item[.unsigned(3)]?.int == nil)
        #expect(throws: COSEKeyError.self) { try COSEKey(item) }
        // 2^63 exactly, and -2^63 - 1: one past each end of Int64.
        #expect(CBOR.unsigned(1 << 63).int == nil)
        #expect(CBOR.negative(1 << 63).int == nil)
        #expect(CBOR.negative((1 << 63) - 1).int == Int64.min)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
