import Foundation
import SesameProtocol
import Testing

@Suite("Wire models")
struct WireModelTests {
    @Test("APIError encodes the documented field names (docs/errors.md) and decodes them back")
    func apiErrorWireNames() throws {
        let error = APIError(
            .validationFailed, details: [FieldError(field: "email", message: "Invalid", code: "invalid_format")],
            errorID: "e-1")
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(error)) as? [String: Any])
        #expect(json["error"] as? String == "invalid_request")
        #expect(json["error_code"] as? Int == 3000)
        #expect(json["error_id"] as? String == "e-1")
        #expect(json["error_message_key"] as? String == "error.validation_failed")
        let details = try #require(json["error_details"] as? [[String: Any]])
        #expect(details.first?["field"] as? String == "email")
        let decoded = try JSONDecoder().decode(APIError.self, from: JSONEncoder().encode(error))
        #expect(decoded == error)
        #expect(decoded.code == .validationFailed)
    }

    @Test("a plain RFC 6749 error body from any provider decodes")
    func plainOAuthError() throws {
        let body = Data(#"{"error":"invalid_grant","error_description":"expired"}"#.utf8)
        let error = try JSONDecoder().decode(APIError.self, from: body)
        #expect(error.error == "invalid_grant")
        #expect(error.errorCode == nil && error.code == nil)
    }

    @Test("error code table: unique keys, protocol error strings, statuses")
    func errorCodeTable() {
        let keys = APIErrorCode.allCases.map(\.messageKey)
        #expect(Set(keys).count == keys.count)
        #expect(APIErrorCode.invalidMFACode.messageKey == "error.invalid_mfa_code")
        #expect(APIErrorCode.invalidRedirectURI.messageKey == "error.invalid_redirect_uri")
        #expect(APIErrorCode.pkceRequired.messageKey == "error.pkce_required")
        #expect(APIErrorCode.invalidClient.httpStatus == 401)
        #expect(APIErrorCode.invalidGrant.httpStatus == 400)
        #expect(APIErrorCode.invalidCredentials.error == "invalid_grant")
        for code in APIErrorCode.allCases {
            #expect(!code.defaultDescription.isEmpty)
            #expect((100...599).contains(code.httpStatus))
        }
    }

    @Test("provider metadata: minimal third-party document decodes, Sesame fields round-trip")
    func providerMetadata() throws {
        let minimal = Data(#"""
        {"issuer":"https://accounts.example.com","authorization_endpoint":"https://accounts.example.com/o/auth",
         "token_endpoint":"https://accounts.example.com/o/token","jwks_uri":"https://accounts.example.com/jwks",
         "response_types_supported":["code"],"something_new":{"nested":true}}
        """#.utf8)
        let metadata = try JSONDecoder().decode(ProviderMetadata.self, from: minimal)
        #expect(metadata.issuer == "https://accounts.example.com")
        #expect(metadata.authorizationResponseIssParameterSupported == nil)
        var full = metadata
        full.codeChallengeMethodsSupported = ["S256"]
        full.authorizationResponseIssParameterSupported = true
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(full)) as? [String: Any])
        #expect(json["code_challenge_methods_supported"] as? [String] == ["S256"])
        #expect(json["authorization_response_iss_parameter_supported"] as? Bool == true)
        #expect(try JSONDecoder().decode(ProviderMetadata.self, from: JSONEncoder().encode(full)) == full)
    }

    @Test("provider metadata without a token endpoint is refused")
    func metadataMissingTokenEndpoint() {
        let body = Data(#"{"issuer":"https://a.example","authorization_endpoint":"https://a.example/auth","jwks_uri":"https://a.example/jwks"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ProviderMetadata.self, from: body) }
    }

    @Test("token response: expires_in as number or string; snake_case names")
    func tokenResponse() throws {
        let a = try JSONDecoder().decode(TokenResponse.self, from: Data(#"{"access_token":"x","token_type":"Bearer","expires_in":"300"}"#.utf8))
        #expect(a.expiresIn == 300)
        let b = try JSONDecoder().decode(TokenResponse.self, from: Data(#"{"access_token":"x","token_type":"bearer","expires_in":60,"refresh_token":"r","id_token":"i","device_secret":"d"}"#.utf8))
        #expect(b.expiresIn == 60 && b.refreshToken == "r" && b.idToken == "i" && b.deviceSecret == "d")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TokenResponse.self, from: Data(#"{"token_type":"Bearer"}"#.utf8))
        }
    }

    @Test("standard claims use OIDC Core §5.1 names")
    func standardClaims() throws {
        var claims = StandardClaims(sub: "u1")
        claims.givenName = "Ada"
        claims.emailVerified = true
        claims.address = AddressClaim(postalCode: "0150")
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(claims)) as? [String: Any])
        #expect(json["given_name"] as? String == "Ada")
        #expect(json["email_verified"] as? Bool == true)
        #expect((json["address"] as? [String: Any])?["postal_code"] as? String == "0150")
    }

    @Test("there is no password grant")
    func noPasswordGrant() {
        #expect(GrantType(rawValue: "password") == nil)
        #expect(!GrantType.allCases.map(\.rawValue).contains("password"))
    }
}
