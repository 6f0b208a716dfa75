import Foundation
import SesameProtocol

/// `components.schemas` of the OpenAPI document. JSON bodies are inferred from the
/// ``SesameProtocol`` wire types themselves (``OpenAPI/Schema/inferred(full:minimal:description:)``);
/// form-encoded requests are listed parameter by parameter.
enum OpenAPISchemas {
    static func all(issuer: String) -> [String: OpenAPI.Schema] {
        var catalog = Catalog()
        protocolTypes(issuer: issuer, into: &catalog)
        accountTypes(into: &catalog)
        adminTypes(into: &catalog)
        formRequests(into: &catalog)
        catalog.schemas["APIErrorCode"] = errorCode
        catalog.schemas["Empty"] = OpenAPI.Schema(type: "object", description: "An empty JSON object, `{}`.")
        return catalog.schemas
    }

    /// Schemas by name.
    struct Catalog {
        var schemas: [String: OpenAPI.Schema] = [:]

        /// Adds the schema inferred from `full` and `minimal` values of a wire type.
        mutating func add<Value: Encodable>(_ name: String, _ full: Value, _ minimal: Value, _ description: String) {
            let schema = OpenAPI.Schema.inferred(full: full, minimal: minimal, description: description)
            schemas[name] = Self.isRequestBody(name) ? schema.requestBody() : schema
        }

        /// The request bodies, by the house naming of the wire types (``SesameProtocol``):
        /// `…Request`, `…Confirmation`, `…Update`, `…Registration`, `…Submission`.
        static func isRequestBody(_ name: String) -> Bool {
            ["Request", "Confirmation", "Update", "Registration", "Submission", "Spec", "Retirement", "AdminUserProfile"].contains { name.hasSuffix($0) }
        }
    }

    /// The stable numeric error codes (docs/errors.md), with the table in `x-error-codes`.
    static var errorCode: OpenAPI.Schema {
        var schema = OpenAPI.Schema.integer(
            "Stable numeric error code; codes are never reused. See x-error-codes for each code's `error`, HTTP status and meaning.")
        schema.integerValues = APIErrorCode.allCases.map(\.rawValue)
        schema.errorCodes = APIErrorCode.allCases.map {
            OpenAPI.Schema.ErrorCodeEntry(
                code: $0.rawValue, error: $0.error, httpStatus: $0.httpStatus, messageKey: $0.messageKey,
                description: $0.defaultDescription)
        }
        return schema
    }

    // MARK: JSON wire types

    private static func protocolTypes(issuer: String, into catalog: inout Catalog) {
        let url = URL(string: "https://id.example.com/x")!
        let discovery = DiscoveryEndpoint.metadata(issuer: issuer)
        var fullDiscovery = discovery
        fullDiscovery.registrationEndpoint = fullDiscovery.registrationEndpoint ?? url
        fullDiscovery.authorizationChallengeEndpoint = fullDiscovery.authorizationChallengeEndpoint ?? url
        fullDiscovery.userinfoSigningAlgValuesSupported = ["RS256"]
        fullDiscovery.tokenEndpointAuthSigningAlgValuesSupported = ["RS256"]
        fullDiscovery.serviceDocumentation = url
        catalog.add(
            "ProviderMetadata", fullDiscovery,
            ProviderMetadata(
                issuer: discovery.issuer, authorizationEndpoint: url, tokenEndpoint: url, jwksURI: url),
            "OpenID Connect Discovery 1.0 §3 / RFC 8414 §2 metadata.")
        let rsa = PublishedJWK.rsa(modulus: Data([1]), exponent: Data([1]), kid: "k")
        let ec = PublishedJWK.ec(x: "x", y: "y", kid: "k")
        catalog.add("JWKS", JWKSDocument(keys: [rsa, ec]), JWKSDocument(keys: [rsa, ec]), "RFC 7517 §5 JSON Web Key Set.")
        catalog.add(
            "TokenResponse",
            TokenResponse(
                accessToken: "a", expiresIn: 1, refreshToken: "r", idToken: "i", scope: "s",
                issuedTokenType: "t", deviceSecret: "d"),
            TokenResponse(accessToken: "a"), "RFC 6749 §5.1 / OIDC Core §3.1.3.3 token response.")
        catalog.add(
            "IntrospectionResponse",
            IntrospectionResponse(
                active: true, scope: "s", clientID: "c", username: "u", tokenType: "t", exp: 1, iat: 1,
                nbf: 1, sub: "s", aud: ["a"], iss: "i", jti: "j", acr: "a", amr: ["pwd"]),
            .inactive, "RFC 7662 §2.2 introspection response; inactive tokens are `{\"active\":false}`.")
        catalog.add(
            "ClientRegistrationRequest",
            ClientRegistrationRequest(
                redirectURIs: ["http://127.0.0.1/callback"], tokenEndpointAuthMethod: "none",
                grantTypes: ["authorization_code", "refresh_token"], responseTypes: ["code"], clientName: "Agent",
                scope: "openid offline_access", softwareID: "agent", softwareVersion: "1.0", clientID: "dyn-x"),
            ClientRegistrationRequest(), "Client metadata (RFC 7591 section 2); unknown members are ignored.")
        let registered = ClientRegistrationResponse(
            clientID: "dyn-x", clientSecret: "s", clientIDIssuedAt: 1, clientSecretExpiresAt: 0, registrationAccessToken: "t",
            registrationClientURI: "https://id.example.com/register/dyn-x", redirectURIs: ["http://127.0.0.1/callback"],
            tokenEndpointAuthMethod: "none", grantTypes: ["authorization_code"], responseTypes: ["code"], clientName: "Agent",
            scope: "openid", softwareID: "agent", softwareVersion: "1.0")
        var minimalRegistered = registered
        minimalRegistered.clientSecret = nil
        minimalRegistered.clientSecretExpiresAt = nil
        minimalRegistered.softwareID = nil
        minimalRegistered.softwareVersion = nil
        catalog.add(
            "ClientRegistrationResponse", registered, minimalRegistered,
            "The client information response (RFC 7591 section 3.2.1, RFC 7592 section 3).")
        catalog.add(
            "PushedAuthorizationResponse",
            PushedAuthorizationResponse(requestURI: "urn:ietf:params:oauth:request_uri:r", expiresIn: 60),
            PushedAuthorizationResponse(requestURI: "urn:ietf:params:oauth:request_uri:r", expiresIn: 60),
            "RFC 9126 §2.2: the request_uri for /authorize, usable once.")
        let device = DeviceAuthorizationResponse(
            deviceCode: "d", userCode: "BCDF-GHJK", verificationURI: URL(string: "https://id.example.com/device")!,
            verificationURIComplete: URL(string: "https://id.example.com/device?user_code=BCDF-GHJK")!, expiresIn: 600,
            interval: 5)
        catalog.add(
            "DeviceAuthorizationResponse", device, device,
            "RFC 8628 §3.2: the device code to poll /token with, and the user code and page to show.")
        catalog.add("StandardClaims", fullClaims, StandardClaims(sub: "s"), "OIDC Core §5.1 standard claims.")
        catalog.add(
            "APIError",
            {
                var full = APIError(
                    error: "e", errorDescription: "d", errorURI: "u", errorID: "i", errorCode: 1000,
                    errorUserMessage: "m", errorMessageKey: "k",
                    errorDetails: [FieldError(field: "f", message: "m", code: "c")], authSession: "s",
                    mfaMethods: ["email"], remainingAttempts: 1, retryAfter: 30)
                full.challenge = ProofOfWorkChallenge(kind: .proofOfWork, token: "t", seed: "s", difficulty: 14, expiresAt: 1)
                full.passkeyOptions = CredentialRequestOptionsJSON(
                    challenge: "c", timeout: 300_000, rpId: "r",
                    allowCredentials: [CredentialDescriptorJSON(id: "i", transports: ["internal"])], userVerification: "required")
                full.ceremonyStep = "7.2 step 12 (origin)"
                return full
            }(),
            APIError(error: "e"),
            "Every error (RFC 6749 §5.2 plus the Sesame members): `error_code` is from APIErrorCode, `error_details[].code` one of \(FieldErrorCode.all.joined(separator: ", ")).")
        catalog.add(
            "AuthorizationChallengeResponse", AuthorizationChallengeResponse(authorizationCode: "c"),
            AuthorizationChallengeResponse(authorizationCode: "c"),
            "draft-ietf-oauth-first-party-apps §5.2.1: redeem the code at /token.")
        catalog.add(
            "MFAEnrollmentList",
            MFAEnrollmentList(methods: [MFAEnrollmentStatus(method: .email, confirmed: true, destination: "d")]),
            MFAEnrollmentList(methods: [MFAEnrollmentStatus(method: .email, confirmed: true)]),
            "The user's second factors (`method`: email, sms or totp).")
        catalog.add(
            "MFAEnrollmentStatus", MFAEnrollmentStatus(method: .sms, confirmed: false, destination: "d"),
            MFAEnrollmentStatus(method: .sms, confirmed: false), "One second factor.")
        let code = MFACodeSubmission(code: "123456")
        catalog.add("MFACodeSubmission", code, code, "A 6-digit one-time code.")
        let totp = TOTPEnrollment(secret: "s", otpauthURI: "u")
        catalog.add("TOTPEnrollment", totp, totp, "RFC 6238 secret (base32) and otpauth:// URI.")
        let sms = SMSEnrollmentRequest(phoneNumber: "+4712345678")
        catalog.add("SMSEnrollmentRequest", sms, sms, "E.164 phone number for SMS codes.")
    }

    static var fullClaims: StandardClaims {
        var claims = StandardClaims(sub: "s")
        claims.name = "n"
        claims.givenName = "n"
        claims.familyName = "n"
        claims.middleName = "n"
        claims.nickname = "n"
        claims.preferredUsername = "n"
        claims.profile = "n"
        claims.picture = "n"
        claims.website = "n"
        claims.email = "n"
        claims.emailVerified = true
        claims.gender = "n"
        claims.birthdate = "n"
        claims.zoneinfo = "n"
        claims.locale = "n"
        claims.phoneNumber = "n"
        claims.phoneNumberVerified = true
        claims.address = fullAddress
        claims.updatedAt = 1
        return claims
    }

    static let fullAddress = AddressClaim(
        formatted: "f", streetAddress: "s", locality: "l", region: "r", postalCode: "p", country: "c")
}
