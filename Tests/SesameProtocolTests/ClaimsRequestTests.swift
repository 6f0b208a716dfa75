import Foundation
import SesameProtocol
import Testing

/// OIDC Core §5.5: the `claims` parameter's JSON, as the SDK writes it and the server reads it.
@Suite("ClaimsRequest (OIDC Core §5.5)")
struct ClaimsRequestTests {
    @Test("the §5.5 example parses: null members, essential, value and values")
    func specExample() throws {
        let text = """
            {"userinfo":{"given_name":{"essential":true},"nickname":null,
              "email":{"essential":true},"email_verified":{"essential":true},"picture":null,
              "http://example.info/claims/groups":null},
             "id_token":{"auth_time":{"essential":true},
              "acr":{"values":["urn:mace:incommon:iap:silver"]}}}
            """
        let request = try ClaimsRequest.parse(text)
        #expect(request.userinfo.count == 6)
        #expect(request.userinfo["nickname"] == IndividualClaimRequest())
        #expect(request.userinfo["given_name"]?.essential == true)
        #expect(request.idToken["acr"]?.acceptedStrings == ["urn:mace:incommon:iap:silver"])
        #expect(request.idToken["acr"]?.essential == false)
    }

    @Test("value and values are listed together, strings first-class, numbers and booleans kept")
    func values() throws {
        let request = try ClaimsRequest.parse(
            #"{"id_token":{"sub":{"value":"248289761001"},"x":{"value":2,"values":[true,"a"]}}}"#)
        #expect(request.idToken["sub"]?.acceptedStrings == ["248289761001"])
        #expect(request.idToken["x"]?.acceptedValues == [.number(2), .bool(true), .string("a")])
        #expect(request.idToken["x"]?.acceptedStrings == ["a"])
    }

    @Test("unknown members are ignored; absent or null userinfo and id_token request nothing")
    func unknownMembers() throws {
        #expect(try ClaimsRequest.parse(#"{"other":{"a":1}}"#).isEmpty)
        #expect(try ClaimsRequest.parse(#"{"userinfo":null,"id_token":null}"#).isEmpty)
        let request = try ClaimsRequest.parse(#"{"id_token":{"name":{"essential":true,"purpose":"greeting"}}}"#)
        #expect(request.idToken["name"] == IndividualClaimRequest(essential: true))
    }

    @Test(
        "malformed values are refused with a message naming the rule",
        arguments: [
            ("{", "not valid JSON"), ("[]", "must be a JSON object"), ("\"x\"", "must be a JSON object"),
            (#"{"id_token":[]}"#, "wrong type"), (#"{"userinfo":{"name":"yes"}}"#, "wrong type"),
            (#"{"userinfo":{"name":{"essential":1}}}"#, "wrong type"),
            (#"{"userinfo":{"name":{"values":{"a":1}}}}"#, "wrong type"),
        ])
    func malformed(text: String, message: String) {
        #expect {
            _ = try ClaimsRequest.parse(text)
        } throws: { error in
            (error as? ClaimsRequestError)?.description.contains(message) == true
        }
    }

    @Test("json writes the compact form (null for default requests) and reads back equal")
    func roundTrip() throws {
        let request = ClaimsRequest(
            userinfo: ["email": IndividualClaimRequest()],
            idToken: ["acr": IndividualClaimRequest(essential: true, values: [.string("urn:sesame:acr:mfa")])])
        #expect(request.json == #"{"id_token":{"acr":{"essential":true,"values":["urn:sesame:acr:mfa"]}},"userinfo":{"email":null}}"#)
        #expect(try ClaimsRequest.parse(request.json) == request)
        #expect(ClaimsRequest().json == "{}")
    }
}
