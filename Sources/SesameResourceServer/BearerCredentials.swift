import Foundation
import SesameProtocol

/// Reads the access token from an `Authorization` header (RFC 6750 §2.1), the only way this
/// library accepts one: never a form body or query parameter (RFC 9700 §2.4 forbids the query).
public enum BearerCredentials {
    /// The token in `Authorization: Bearer <token>`.
    ///
    /// Throws ``AccessTokenRule/missing`` when there is no header or it has another scheme (the
    /// API answers with a bare challenge), and ``AccessTokenRule/request`` when the header names
    /// Bearer but its token is not `b64token` syntax.
    public static func token(fromAuthorization header: String?) throws(AccessTokenError) -> String {
        let (scheme, token) = try credentials(fromAuthorization: header)
        guard scheme == .bearer else {
            throw AccessTokenError(.missing, "the Authorization header is not the Bearer scheme")
        }
        return token
    }

    /// The schemes an access token is presented with.
    public enum Scheme: String, Sendable {
        /// RFC 6750 §2.1 `Authorization: Bearer`.
        case bearer = "Bearer"
        /// RFC 9449 §7.1 `Authorization: DPoP`, with a `DPoP` proof header.
        case dpop = "DPoP"
    }

    /// The scheme and token of `Authorization: Bearer <token>` or `Authorization: DPoP <token>`
    /// (scheme names compared without regard to case, RFC 9110 §11.1).
    ///
    /// Throws ``AccessTokenRule/missing`` when there is no header or it has another scheme, and
    /// ``AccessTokenRule/request`` when the token is not `b64token` syntax.
    public static func credentials(fromAuthorization header: String?) throws(AccessTokenError) -> (Scheme, String) {
        guard let header else { throw AccessTokenError(.missing, "no Authorization header") }
        let trimmed = header.drop { $0 == " " }
        let scheme: Scheme
        let rest: Substring
        if trimmed.count >= 6, trimmed.prefix(6).lowercased() == "bearer" {
            scheme = .bearer
            rest = trimmed.dropFirst(6)
        } else if trimmed.count >= 4, trimmed.prefix(4).lowercased() == "dpop" {
            scheme = .dpop
            rest = trimmed.dropFirst(4)
        } else {
            throw AccessTokenError(.missing, "the Authorization header is neither the Bearer nor the DPoP scheme")
        }
        guard rest.first == " " else {
            throw AccessTokenError(.request, "Authorization: \(scheme.rawValue) needs a space and then the token")
        }
        var token = rest.drop { $0 == " " }
        while token.last == " " { token = token.dropLast() }
        guard !token.isEmpty, token.utf8.allSatisfy(isB64TokenByte) else {
            throw AccessTokenError(.request, "the \(scheme.rawValue) token is empty or not b64token syntax (RFC 6750 §2.1)")
        }
        return (scheme, String(token))
    }

    /// `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`: the checked
    /// alphabet; a JWS uses a subset of it.
    private static func isB64TokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"),
            UInt8(ascii: "/"), UInt8(ascii: "="):
            true
        default: false
        }
    }
}

extension AccessTokenValidator {
    /// Reads the token from an `Authorization` header value and validates it: what a middleware
    /// of any framework calls.
    ///
    /// A DPoP-bound token is refused here, since there is no proof to check: an API that accepts
    /// DPoP calls ``authenticate(authorization:dpopProofs:method:url:requiredScopes:clientCertificate:)``.
    ///
    /// A token bound to a TLS client certificate (RFC 8705 §3) passes only when
    /// `clientCertificate` returns that certificate (DER) for the request's connection; it is
    /// asked only for such a token.
    public func authenticate(
        authorization: String?, requiredScopes: some Collection<String> = [String](),
        clientCertificate: () async -> [UInt8]? = { nil }
    ) async throws(AccessTokenError) -> VerifiedAccessToken {
        let token = try BearerCredentials.token(fromAuthorization: authorization)
        let verified = try await validate(token, requiredScopes: requiredScopes)
        guard verified.confirmationThumbprint == nil else {
            throw DPoPValidation.refusal(.dpopBinding, "the token is bound to a DPoP key; this API checks no DPoP proofs")
        }
        try await Self.checkCertificateBinding(verified, clientCertificate)
        return verified
    }

    /// RFC 8705 §3.2 for a resource server: a certificate-bound token is accepted only from a
    /// connection that presented the certificate whose `x5t#S256` it carries.
    static func checkCertificateBinding(
        _ verified: VerifiedAccessToken, _ clientCertificate: () async -> [UInt8]?
    ) async throws(AccessTokenError) {
        guard let bound = verified.certificateThumbprint else { return }
        guard let presented = await clientCertificate() else {
            throw AccessTokenError(
                .certificateBinding, "the token is bound to a TLS client certificate and the connection presented none")
        }
        guard ConstantTime.equals(CertificateThumbprint.sha256(der: presented), bound) else {
            throw AccessTokenError(
                .certificateBinding, "the token is bound to another TLS client certificate than the connection's")
        }
    }

    /// Reads the token from the `Authorization` header and validates it, with DPoP (RFC 9449
    /// §7.1): a token bound to a key (`cnf.jkt`) must come as `Authorization: DPoP` with one
    /// `DPoP` proof of that key for this request (method, URL, `ath`), seen once
    /// (``DPoPValidation``); a bound token sent as `Bearer`, or a bearer token sent as `DPoP`, is
    /// refused. Bearer tokens are accepted as ``authenticate(authorization:requiredScopes:clientCertificate:)``
    /// accepts them.
    /// - Parameters:
    ///   - authorization: the request's `Authorization` header value.
    ///   - dpopProofs: every `DPoP` header value of the request.
    ///   - method: the request's method.
    ///   - url: the request's absolute URL as the client addressed it (the API's public origin
    ///     and the path).
    ///   - requiredScopes: the scopes the request needs.
    ///   - clientCertificate: the TLS client certificate (DER) of the request's connection, asked
    ///     only for a token bound to one (RFC 8705 §3).
    public func authenticate(
        authorization: String?, dpopProofs: [String], method: String, url: String,
        requiredScopes: some Collection<String> = [String](), clientCertificate: () async -> [UInt8]? = { nil }
    ) async throws(AccessTokenError) -> VerifiedAccessToken {
        let (scheme, token) = try BearerCredentials.credentials(fromAuthorization: authorization)
        let verified: VerifiedAccessToken
        do {
            verified = try await validate(token, requiredScopes: requiredScopes)
        } catch {
            var error = error
            if scheme == .dpop { error.scheme = DPoP.scheme }
            throw error
        }
        try await Self.checkCertificateBinding(verified, clientCertificate)
        switch (scheme, verified.confirmationThumbprint) {
        case (.bearer, nil):
            return verified
        case (.bearer, _?):
            throw DPoPValidation.refusal(.dpopBinding, "the token is bound to a DPoP key: send it as Authorization: DPoP with a proof")
        case (.dpop, nil):
            throw DPoPValidation.refusal(.dpopBinding, "the token is not bound to a DPoP key: send it as Authorization: Bearer")
        case (.dpop, let thumbprint?):
            try await dpop.check(dpopProofs, method: method, url: url, accessToken: token, boundTo: thumbprint, now: now())
            return verified
        }
    }
}
