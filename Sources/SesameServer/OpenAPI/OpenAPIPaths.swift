import Foundation
import SesameProtocol

/// `paths` of the OpenAPI document: one entry per JSON endpoint the router registers
/// (``SesameRouter``, ``FirstPartyRoutes``, ``AccountRoutes``). The HTML pages (`/`, `/authorize`,
/// `/login`, `/logout`, `/signup`, `/password-reset`) and their scripts (`/assets/`) are not JSON
/// APIs and are not listed.
enum OpenAPIPaths {
    typealias Responses = [String: OpenAPI.ResponseObject]

    static var all: [String: OpenAPI.PathItem] {
        let paths = protocolPaths.merging(accountPaths) { first, _ in first }
            .merging(mfaPaths) { first, _ in first }
            .merging(pinPaths) { first, _ in first }
            .merging(adminPaths) { first, _ in first }
            .merging(apiRegistryPaths) { first, _ in first }
        return paths.reduce(into: [:]) { result, entry in
            result[entry.key] = withChallenges(withRateLimits(entry.value, path: entry.key), path: entry.key)
        }
    }

    /// ``ChallengeGate``: the endpoints that may answer with a challenge take the
    /// `Sesame-Challenge-Solution` header and document the 429 answers.
    static func withChallenges(_ item: OpenAPI.PathItem, path: String) -> OpenAPI.PathItem {
        guard ["/authorize-challenge", "/api/signup", "/api/password/reset"].contains(path), var post = item.post else {
            return item
        }
        var item = item
        post.parameters = (post.parameters ?? []) + [challengeSolution]
        post.responses = merged(post.responses, challenged)
        item.post = post
        return item
    }

    static let challengeSolution = OpenAPI.Parameter(
        name: ProofOfWorkSolution.headerName, in: "header", required: false,
        description: "The answer to a challenge of an earlier 429 proof_of_work_required answer: `<challenge.token>:<nonce>` (0 for a clear pass); the nonce makes SHA-256(seed || 8-byte big-endian nonce) start with `difficulty` zero bits.",
        schema: .string())

    /// RFC 9449 §4.1: the proof of possession of a DPoP key.
    static let dpopProof = OpenAPI.Parameter(
        name: "DPoP", in: "header", required: false,
        description: "A DPoP proof JWT (RFC 9449 §4.2): typ dpop+jwt, an asymmetric alg, the public jwk; claims jti (once), htm, htu (this URL without query), iat (within 5 minutes), ath with an access token, nonce when the server requires one. At /token it binds the tokens to the key (token_type DPoP, cnf.jkt).",
        schema: .string())

    static let challenged: Responses = [
        "429": .error(
            "proof_of_work_required (4001): the request looks automated (ChallengePolicy); `challenge` holds the puzzle (type, token, algorithm, seed, difficulty, expires_at): solve it and send the same request again with the Sesame-Challenge-Solution header. invalid_challenge_solution (4002): the solution sent was expired, forged, already used, for another request, or wrong; `challenge` holds a new one.")
    ]

    /// ``RateLimitPolicy``: 429 on every operation of a limited endpoint class.
    static func withRateLimits(_ item: OpenAPI.PathItem, path: String) -> OpenAPI.PathItem {
        var item = item
        func limited(_ operation: OpenAPI.Operation?, _ method: String) -> OpenAPI.Operation? {
            guard var operation, RateLimitPolicy.EndpointClass.of(route: path, method: method) != nil else { return operation }
            operation.responses = merged(operation.responses, rateLimited)
            return operation
        }
        item.get = limited(item.get, "GET")
        item.post = limited(item.post, "POST")
        item.put = limited(item.put, "PUT")
        item.patch = limited(item.patch, "PATCH")
        item.delete = limited(item.delete, "DELETE")
        return item
    }

    static let rateLimited: Responses = [
        "429": .error(
            "rate_limited (4000): too many requests of this kind from this client address or for this client (RateLimitPolicy); Retry-After and retry_after give the seconds to wait, RateLimit-Policy and RateLimit the limit.")
    ]

    // MARK: Shared pieces

    static let bearer: [[String: [String]]] = [["bearerAuth": []]]
    static let clientAuthentication: [[String: [String]]] = [["clientBasic": []], [:]]
    static let noAuthentication: [[String: [String]]] = []

    static let invalidToken: Responses = [
        "401": .error("invalid_token (1011): the Bearer access token is missing, expired or revoked.")
    ]
    /// The account and MFA APIs also need a token of a first-party client
    /// (``BearerAuthentication/authenticateFirstParty(_:context:)``); `/userinfo` does not.
    static let firstPartyToken: Responses = merged(
        invalidToken,
        ["403": .error(
            "insufficient_scope (1021): the token's client is not registered as first-party; only first-party clients may use this API.")])
    /// ``LoginThrottle``: every endpoint that checks a password.
    static let throttledPassword: Responses = [
        "429": .error(
            "too_many_attempts (2009, error temporarily_unavailable): too many failed passwords for this login name (5 in a row lock it for 30 s, doubling to 15 min) or from this client address (50 in 15 min lock it for 15 min); the password was not checked. Retry-After header and retry_after give the seconds to wait.")
    ]
    static let badRequest: Responses = [
        "400": .error(
            "invalid_request (1000) for a wrong content type, malformed JSON or a too-large body; validation_failed (3000) with error_details per field.")
    ]

    /// The responses of `parts`; descriptions of the same status are joined.
    static func merged(_ parts: Responses...) -> Responses {
        parts.reduce(into: [:]) { result, part in
            result.merge(part) { first, second in
                var joined = first
                joined.description += " Or: " + second.description
                return joined
            }
        }
    }

    // MARK: OAuth 2.0 / OpenID Connect

    private static var protocolPaths: [String: OpenAPI.PathItem] {
        let metadata = OpenAPI.Operation(
            "getProviderMetadata", tag: "OpenID Connect",
            summary: "Provider metadata (OpenID Connect Discovery 1.0 §4, RFC 8414 §3)",
            responses: ["200": .json("ProviderMetadata", "The metadata; cacheable for 5 minutes.")],
            security: noAuthentication)
        var rfc8414 = metadata
        rfc8414.operationId = "getAuthorizationServerMetadata"
        let userInfo = OpenAPI.Operation(
            "getUserInfo", tag: "OpenID Connect", summary: "UserInfo (OIDC Core §5.3)",
            description: "Claims released for the token's scopes (OIDC Core §5.4). Authorization header only: `Bearer <token>` (RFC 6750 §2.1), or `DPoP <token>` with a DPoP proof for a DPoP-bound token (RFC 9449 §7.1).",
            parameters: [dpopProof],
            responses: merged(
                ["200": .json("StandardClaims", "The user's claims.")], invalidToken,
                ["403": .error("insufficient_scope (1012): the token lacks openid.")]),
            security: bearer)
        var userInfoPost = userInfo
        userInfoPost.operationId = "postUserInfo"
        return [
            "/.well-known/openid-configuration": OpenAPI.PathItem(get: metadata),
            "/.well-known/oauth-authorization-server": OpenAPI.PathItem(get: rfc8414),
            "/jwks": OpenAPI.PathItem(
                get: OpenAPI.Operation(
                    "getJWKS", tag: "OpenID Connect", summary: "Signing keys (RFC 7517 §5)",
                    responses: ["200": .json("JWKS", "The published keys (RFC 7517 §5); cacheable for 60 s.", mediaType: "application/jwk-set+json")],
                    security: noAuthentication)),
            "/.well-known/apple-app-site-association": OpenAPI.PathItem(
                get: OpenAPI.Operation(
                    "getAppleAppSiteAssociation", tag: "Passkeys",
                    summary: "The Apple apps that may use the passkeys (`webcredentials`)",
                    responses: [
                        "200": .empty("`{\"webcredentials\":{\"apps\":[\"TEAMID.bundle.id\"]}}`; cacheable for an hour."),
                        "404": .error("not_found (1019): no Apple app is configured (`--passkey-apple-app`)."),
                    ],
                    security: noAuthentication)),
            "/.well-known/assetlinks.json": OpenAPI.PathItem(
                get: OpenAPI.Operation(
                    "getAssetLinks", tag: "Passkeys",
                    summary: "The Android apps that may use the passkeys (Digital Asset Links, `get_login_creds`)",
                    responses: [
                        "200": .empty("One statement per app: package name and SHA-256 certificate fingerprints; cacheable for an hour."),
                        "404": .error("not_found (1019): no Android app is configured (`--passkey-android-app`)."),
                    ],
                    security: noAuthentication)),
            "/health": OpenAPI.PathItem(
                get: OpenAPI.Operation(
                    "getHealth", tag: "Operations", summary: "Liveness: `{\"status\":\"ok\"}` (as /health/live)",
                    responses: ["200": .empty("The server is running.")], security: noAuthentication)),
            "/health/live": OpenAPI.PathItem(
                get: OpenAPI.Operation(
                    "getHealthLive", tag: "Operations", summary: "Liveness: the process serves; never touches the database",
                    responses: ["200": .empty("The server is running.")], security: noAuthentication)),
            "/health/ready": OpenAPI.PathItem(
                get: OpenAPI.Operation(
                    "getHealthReady", tag: "Operations",
                    summary: "Readiness: the database answers within 2 s and its schema is current",
                    responses: [
                        "200": .empty("Ready: `{\"status\":\"ready\",\"schema_version\":N}`."),
                        "503": .empty("Not ready: `{\"status\":\"unavailable\",\"reason\":\"…\"}`."),
                    ],
                    security: noAuthentication)),
            "/token": OpenAPI.PathItem(
                post: OpenAPI.Operation(
                    "postToken", tag: "OAuth 2.0", summary: "Token endpoint (RFC 6749 §3.2)",
                    description: "Grants: authorization_code (PKCE S256), refresh_token (rotated), client_credentials, token exchange, the RFC 8628 device code (400 authorization_pending, slow_down, access_denied or expired_token while polling). No password grant (RFC 9700 §2.4). With a DPoP header the tokens are bound to its key (RFC 9449 §5).",
                    parameters: [dpopProof],
                    requestBody: .form("TokenRequest"),
                    responses: [
                        "200": .json("TokenResponse", "Tokens; Cache-Control: no-store."),
                        "400": .error("invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, unauthorized_client; invalid_dpop_proof (1027) or use_dpop_nonce (1028, with a DPoP-Nonce header) for DPoP; for the PIN grant invalid_pin (2010, remaining_attempts) or pin_registration_revoked (2011), each guess counted before its signature is checked."),
                        "401": .error("invalid_client (1001): client authentication failed."),
                    ],
                    security: clientAuthentication)),
            "/par": OpenAPI.PathItem(
                post: OpenAPI.Operation(
                    "postPushedAuthorizationRequest", tag: "OAuth 2.0",
                    summary: "Pushed authorization request (RFC 9126)",
                    description: "Checks the request as /authorize would and answers a request_uri, valid for 60 s and once; then send the browser to /authorize?client_id=…&request_uri=…. A DPoP header binds the code to its key (RFC 9449 §10.1).",
                    parameters: [dpopProof],
                    requestBody: .form("PushedAuthorizationRequest"),
                    responses: [
                        "201": .json("PushedAuthorizationResponse", "The request_uri; Cache-Control: no-store."),
                        "400": .error("The error /authorize would answer (invalid_request, unsupported_response_type, invalid_scope, …)."),
                        "401": .error("invalid_client (1001): client authentication failed."),
                    ],
                    security: clientAuthentication)),
            "/device_authorization": OpenAPI.PathItem(
                post: OpenAPI.Operation(
                    "postDeviceAuthorization", tag: "OAuth 2.0",
                    summary: "Device authorization request (RFC 8628)",
                    description: "For a client registered with the device_code grant: answers a device code and a user code; show the user code and verification_uri (or a QR code of verification_uri_complete), then poll /token with grant_type urn:ietf:params:oauth:grant-type:device_code at the interval until the person approves on /device (authorization_pending, slow_down, access_denied, expired_token).",
                    requestBody: .form("DeviceAuthorizationRequest"),
                    responses: [
                        "200": .json("DeviceAuthorizationResponse", "The codes; Cache-Control: no-store."),
                        "400": .error("unauthorized_client (no device grant), invalid_scope or invalid_request (device_name)."),
                        "401": .error("invalid_client (1001): client authentication failed."),
                    ],
                    security: clientAuthentication)),
            "/revoke": OpenAPI.PathItem(
                post: OpenAPI.Operation(
                    "postRevoke", tag: "OAuth 2.0", summary: "Token revocation (RFC 7009)",
                    description: "A refresh token revokes its whole grant. Unknown tokens also answer 200 (§2.2); another client's token is refused (§2.1).",
                    requestBody: .form("RevocationRequest"),
                    responses: [
                        "200": .empty("Revoked (or unknown)."),
                        "400": .error("invalid_request, unsupported_token_type, or unauthorized_client (1003): the token was issued to another client."),
                        "401": .error("invalid_client (1001)."),
                    ],
                    security: clientAuthentication)),
            "/introspect": OpenAPI.PathItem(
                post: OpenAPI.Operation(
                    "postIntrospect", tag: "OAuth 2.0", summary: "Token introspection (RFC 7662)",
                    description: "A client sees the tokens issued to it or meant for it (its id in aud); a client registered with introspects_any_token (a resource server) sees every token. Any other token answers {\"active\":false} (§2.2).",
                    requestBody: .form("IntrospectionRequest"),
                    responses: [
                        "200": .json("IntrospectionResponse", "Active token details, or {\"active\":false}."),
                        "400": .error("invalid_request."),
                        "401": .error("invalid_client (1001): only confidential clients may introspect."),
                    ],
                    security: [["clientBasic": []]])),
            "/userinfo": OpenAPI.PathItem(get: userInfo, post: userInfoPost),
            "/authorize-challenge": OpenAPI.PathItem(
                post: OpenAPI.Operation(
                    "postAuthorizationChallenge", tag: "First-party sign-in",
                    summary: "Native sign-in (draft-ietf-oauth-first-party-apps)",
                    description: "First-party clients only (registered with first_party). Start with username, password and PKCE; answer MFA with auth_session + mfa_method, then auth_session + mfa_code. Step-up: Authorization: Bearer with acr_values=urn:sesame:acr:mfa. Redeem authorization_code at /token.",
                    requestBody: .form("AuthorizationChallengeRequest"),
                    responses: merged(
                        [
                            "200": .json("AuthorizationChallengeResponse", "Signed in: an authorization code."),
                            "400": .error(
                                "insufficient_authorization (2002) with auth_session and mfa_methods; invalid_grant for wrong credentials (2000), a wrong code (2003, remaining_attempts), an expired code (2004), no attempts left (2005) or an unknown auth_session (2007); for passkey_assertion: passkey_invalid (2022; a wrong signature of a known passkey carries remaining_attempts), passkey_locked (2024, remaining_attempts 0: too many wrong signatures in a row), passkey_not_recognized (2021), passkey_counter_regression (2023) or passkey_challenge_invalid (2020); unauthorized_client (1003) for a client that is not first-party. Every attempt is counted before it is checked."),
                            "401": .error("invalid_client (1016): unknown client_id."),
                        ], throttledPassword),
                    security: noAuthentication)),
        ]
    }
}
