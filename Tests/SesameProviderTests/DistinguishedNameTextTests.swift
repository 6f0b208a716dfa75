import SesameProtocol
import Testing

@testable import SesameProvider

/// The RFC 4514 reading behind `tls_client_auth_subject_dn` (RFC 8705 §2.1.2): what compares
/// equal and what is not a DN at all.
@Suite("Distinguished names in RFC 4514 form (tls_client_auth)")
struct DistinguishedNameTextTests {
    @Test("types and values compare without regard to case or spaces around separators; long type names are the short ones")
    func normalized() {
        let registered = DistinguishedNameText.parse("CN=Payments, O=Example Bank ,C=gb")
        #expect(registered == DistinguishedNameText.parse("cn=payments,o=example bank,c=GB"))
        #expect(registered == DistinguishedNameText.parse("commonName=payments,organizationName=Example Bank,countryName=GB"))
        #expect(registered != DistinguishedNameText.parse("O=Example Bank,CN=Payments,C=GB"), "the order of RDNs matters")
        #expect(registered != DistinguishedNameText.parse("CN=Payments,O=Example Bank"), "a missing attribute differs")
    }

    @Test("escapes (RFC 4514 section 2.4): an escaped comma stays in its value; hex pairs are bytes")
    func escapes() throws {
        let attributes = try #require(DistinguishedNameText.parse(#"CN=Smith\, John,O=A\2cB"#))
        #expect(attributes.map(\.value) == ["smith, john", "a,b"])
    }

    @Test("not a DN: empty, a part without =, a trailing escape, a type with a space")
    func refused() {
        for text in ["", "payments", "CN=x,", #"CN=x\"#, "Common Name=x"] {
            #expect(DistinguishedNameText.parse(text) == nil, "\(text)")
        }
    }

    @Test("IP address SANs: IPv4 and IPv6 text read to their 4 and 16 bytes; anything else is not an address")
    func addresses() {
        #expect(IPAddressText.bytes("192.0.2.7") == [192, 0, 2, 7])
        #expect(IPAddressText.bytes("2001:db8::1")?.count == 16)
        #expect(IPAddressText.bytes("300.1.1.1") == nil && IPAddressText.bytes("example.com") == nil)
    }
}
