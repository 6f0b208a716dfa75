import Foundation

/// Reads the access token from an `Authorization` header (RFC 6750 §2.1), the only way this
/// library accepts one: never a form body or query parameter (RFC 9700 §2.4 forbids the query).
public enum BearerCredentials {
    /// The token in `Authorization: Bearer <token>`.
    ///
    /// Throws ``AccessTokenRule/missing`` when there is no header or it has another scheme (the
    /// API answers with a bare challenge), and ``AccessTokenRule/request`` when the header names
    /// Bearer but its token is not `b64token` syntax.
    public static func token(fromAuthorization header: String?) throws(AccessTokenError) -> String {
        guard let header else { throw AccessTokenError(.missing, "no Authorization header") }
        let trimmed = header.drop { $0 == " " }
        guard trimmed.count >= 6, trimmed.prefix(6).lowercased() == "bearer" else {
            throw AccessTokenError(.missing, "the Authorization header is not the Bearer scheme")
        }
        let rest = trimmed.dropFirst(6)
        guard rest.first == " " else {
            throw AccessTokenError(.request, "Authorization: Bearer needs a space and then the token")
        }
        var token = rest.drop { $0 == " " }
        while token.last == " " { token = token.dropLast() }
        guard !token.isEmpty, token.utf8.allSatisfy(isB64TokenByte) else {
            throw AccessTokenError(.request, "the Bearer token is empty or not b64token syntax (RFC 6750 §2.1)")
        }
        return String(token)
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
    public func authenticate(authorization: String?, requiredScopes: some Collection<String> = [String]())
        async throws(AccessTokenError) -> VerifiedAccessToken
    {
        let token = try BearerCredentials.token(fromAuthorization: authorization)
        return try await validate(token, requiredScopes: requiredScopes)
    }
}
