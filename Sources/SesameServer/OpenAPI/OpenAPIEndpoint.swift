import Foundation
import Hummingbird
import SesameProtocol

/// `GET /api/openapi.json` (an OpenAPI document for every JSON endpoint, served by
/// the server): an OpenAPI 3.1 document built from Swift values, with the
/// ``APIError`` schema and the ``APIErrorCode`` table. Served with `Cache-Control: no-store`.
///
/// The document is encoded at its first request and kept: encoding it at start took about
/// 1.5 MB of transient heap (its ~140 KB of JSON, the encoder's dictionaries) and a few
/// milliseconds of every start, for a page most servers serve to a developer now and then
/// (issue #50, found with heaptrack).
struct OpenAPIEndpoint: Sendable {
    let issuer: String
    let registration: Bool
    private let encoded = LockedState<Data?>(nil)

    /// - Parameter registration: whether `/register` is routed (dynamic client registration open).
    init(issuer: String, registration: Bool = false) {
        self.issuer = issuer
        self.registration = registration
    }

    /// The encoded document, made at the first call.
    var document: Data {
        encoded.withLock { encoded in
            if let encoded { return encoded }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let made = (try? encoder.encode(Self.document(issuer: issuer, registration: registration))) ?? Data("{}".utf8)
            encoded = made
            return made
        }
    }

    func handle(_ request: Request, context: SesameRequestContext) -> Response {
        JSONResponse.make(data: document)
    }

    static func document(issuer: String, registration: Bool = false) -> OpenAPI.Document {
        OpenAPI.Document(
            info: OpenAPI.Document.Info(
                title: "Sesame identity server",
                version: "0.1.0",
                description: """
                    OpenID Connect provider with native first-party sign-in, MFA and account \
                    self-service. Every error body is an APIError; error_code values are listed \
                    in the APIErrorCode schema (x-error-codes).

                    \(errorTable)
                    """),
            servers: [OpenAPI.Document.Server(url: issuer)],
            tags: [
                .init(name: "OpenID Connect", description: "Discovery, keys and UserInfo (OIDC Core, RFC 8414)."),
                .init(name: "OAuth 2.0", description: "Token, revocation and introspection (RFC 6749, 7009, 7662)."),
                .init(name: "First-party sign-in", description: "draft-ietf-oauth-first-party-apps."),
                .init(name: "MFA", description: "Second factors: TOTP, email and SMS codes."),
                .init(name: "Accounts", description: "Sign-up, verification, password and email changes, deletion."),
                .init(name: "Profile", description: "OpenID standard claims."),
                .init(name: "Devices", description: "Devices registered to the account."),
                .init(name: "Operations", description: "Health and this document."),
            ],
            paths: registration
                ? OpenAPIPaths.all.merging(OpenAPIPaths.registrationPaths) { first, _ in first } : OpenAPIPaths.all,
            components: OpenAPI.Document.Components(
                schemas: OpenAPISchemas.all(issuer: issuer),
                securitySchemes: [
                    "bearerAuth": .init(
                        scheme: "bearer", bearerFormat: "JWT",
                        description: "RFC 6750 §2.1 access token (RFC 9068 at+jwt) from /token."),
                    "clientBasic": .init(
                        scheme: "basic", description: "RFC 6749 §2.3.1 client_id and client_secret."),
                ]))
    }

    /// The numeric code table as Markdown (docs/errors.md).
    static var errorTable: String {
        let rows = APIErrorCode.allCases.map {
            "| \($0.rawValue) | `\($0.error)` | \($0.httpStatus) | \($0.defaultDescription) |"
        }
        return (["| error_code | error | HTTP | meaning |", "|---|---|---|---|"] + rows).joined(separator: "\n")
    }
}
