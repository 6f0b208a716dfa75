import Foundation
import SesameProtocol

/// The `WWW-Authenticate: Bearer` challenge of RFC 6750 §3 for a refused request.
public struct BearerChallenge: Sendable, Hashable {
    /// `realm` (RFC 7235 §2.2), when the API names one.
    public var realm: String?
    /// `error` (RFC 6750 §3.1); absent when the request had no credentials.
    public var error: String?
    /// `error_description`.
    public var errorDescription: String?
    /// `scope` (RFC 6750 §3): the scopes the resource needs, for `insufficient_scope`.
    public var scope: [String]
    /// `Bearer`, or `DPoP` for a DPoP-bound token (RFC 9449 §7.1).
    public var scheme: String = "Bearer"
    /// RFC 9449 §7.1 `algs`: the proof algorithms accepted, in a `DPoP` challenge.
    public var algorithms: [String] = []
    /// RFC 9728 §5.1 `resource_metadata`: the URL of the API's protected resource metadata, so a
    /// client that knows only the API finds its authorization server.
    public var resourceMetadata: String?

    /// A challenge with the given parameters; absent ones are left out of the header.
    public init(realm: String? = nil, error: String? = nil, errorDescription: String? = nil, scope: [String] = []) {
        self.realm = realm
        self.error = error
        self.errorDescription = errorDescription
        self.scope = scope
    }

    /// The challenge for a refusal. Per RFC 6750 §3.1, a request without credentials gets no
    /// error code and no description.
    public init(refusing error: AccessTokenError, realm: String? = nil) {
        let code = error.errorCode
        self.init(
            realm: realm, error: code, errorDescription: code == nil ? nil : error.message,
            scope: error.rule == .scope ? error.requiredScopes : [])
        scheme = error.scheme
        if scheme == DPoP.scheme { algorithms = DPoPValidation.defaultAlgorithms }
    }

    /// The header value: `Bearer realm="…", error="…", error_description="…", scope="…"`.
    /// Values are quoted strings (RFC 7235 §2.1); characters RFC 6750 §3 does not allow in a
    /// value (outside %x20-21 / %x23-5B / %x5D-7E) are replaced, so a message cannot break the
    /// header.
    public var headerValue: String {
        var parameters: [String] = []
        if let realm { parameters.append("realm=\"\(Self.quotable(realm))\"") }
        if let error { parameters.append("error=\"\(Self.quotable(error))\"") }
        if let errorDescription { parameters.append("error_description=\"\(Self.quotable(errorDescription))\"") }
        if !scope.isEmpty { parameters.append("scope=\"\(Self.quotable(scope.joined(separator: " ")))\"") }
        if !algorithms.isEmpty { parameters.append("algs=\"\(Self.quotable(algorithms.joined(separator: " ")))\"") }
        if let resourceMetadata { parameters.append("resource_metadata=\"\(Self.quotable(resourceMetadata))\"") }
        return parameters.isEmpty ? scheme : scheme + " " + parameters.joined(separator: ", ")
    }

    private static func quotable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(300).map { scalar in
            switch scalar.value {
            case 0x20...0x21, 0x23...0x5B, 0x5D...0x7E: scalar
            case 0x22, 0x5C: "'"
            default: "?"
            }
        }))
    }
}
