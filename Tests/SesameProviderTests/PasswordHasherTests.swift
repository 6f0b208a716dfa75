import Foundation
import Testing
@testable import SesameProvider

@Suite("ScryptPasswordHasher (PHC strings)")
struct PasswordHasherTests {
    let hasher = ScryptPasswordHasher(logN: 10)

    @Test("hash then verify: the PHC string has the parameters, a 16-byte salt and a 32-byte hash")
    func roundTrip() throws {
        let phc = try hasher.hash("correct horse battery staple")
        #expect(phc.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        let fields = phc.split(separator: "$")
        #expect(fields.count == 4)
        #expect(PHCBase64.decode(fields[2])?.count == 16)
        #expect(PHCBase64.decode(fields[3])?.count == 32)
        #expect(!fields[2].contains("=") && !fields[3].contains("="))
        #expect(hasher.verify("correct horse battery staple", against: phc))
        #expect(!hasher.verify("correct horse battery stapler", against: phc))
        #expect(!hasher.verify("", against: phc))
        // A fresh salt per hash.
        #expect(try hasher.hash("correct horse battery staple") != phc)
    }

    @Test("verifies the RFC 7914 §12 test vector written as a PHC string")
    func rfc7914Vector() {
        // scrypt(P="password", S="NaCl", N=1024, r=8, p=16, dkLen=64)
        let phc = "$scrypt$ln=10,r=8,p=16$TmFDbA$/bq+HJ00cgB4VucZDQHp/nxq18vII3gw53N2Y0s3MWIurzDZLiKjiG/xCSedmDDaxyevuUqD7m2DYMvfoswGQA"
        #expect(hasher.verify("password", against: phc))
        #expect(!hasher.verify("Password", against: phc))
    }

    @Test(
        "malformed or hostile PHC strings verify as false without crashing",
        arguments: [
            "", "$", "$scrypt$", "scrypt$ln=10,r=8,p=1$c2FsdHNhbHQ$aGFzaA",
            "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
            "$scrypt$ln=10,r=8$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
            "$scrypt$ln=10,r=8,p=1,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
            "$scrypt$ln=99,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
            "$scrypt$ln=10,r=100000,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
            "$scrypt$ln=-1,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
            "$scrypt$ln=ten,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
            "$scrypt$ln=10,r=8,p=1$!!!!$aGFzaGhhc2hoYXNoaGFzaA",
            "$scrypt$ln=10,r=8,p=1$c2FsdHNhbHRzYWx0$",
            "$scrypt$ln=10,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA$extra",
            "$scrypt$ln=10,r=8,p=1$c2FsdHNhbHRzYWx0==$aGFzaGhhc2hoYXNoaGFzaA",
        ])
    func malformed(phc: String) {
        #expect(!hasher.verify("password", against: phc))
        #expect(hasher.needsRehash(phc))
    }

    @Test("needsRehash when the stored parameters are weaker than the hasher's")
    func needsRehash() throws {
        let weak = try ScryptPasswordHasher(logN: 10).hash("secret-password")
        #expect(!ScryptPasswordHasher(logN: 10).needsRehash(weak))
        #expect(ScryptPasswordHasher(logN: 11).needsRehash(weak))
        #expect(ScryptPasswordHasher(logN: 10, r: 16).needsRehash(weak))
        #expect(ScryptPasswordHasher(logN: 10, p: 2).needsRehash(weak))
        let stronger = try ScryptPasswordHasher(logN: 11).hash("secret-password")
        #expect(!ScryptPasswordHasher(logN: 10).needsRehash(stronger))
        // The weaker hasher still verifies hashes made with stronger parameters.
        #expect(ScryptPasswordHasher(logN: 10).verify("secret-password", against: stronger))
    }

    @Test("the interactive preset uses ln=15, r=8, p=1")
    func interactivePreset() {
        let preset = ScryptPasswordHasher.interactive
        #expect(preset.logN == 15 && preset.r == 8 && preset.p == 1)
    }
}
