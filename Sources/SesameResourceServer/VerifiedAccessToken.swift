import Foundation
import SesameJOSE
import SesameProtocol

/// A JWT access token whose signature and claims passed ``AccessTokenValidator``: the claims of
/// RFC 9068 §2.2 an API authorizes with.
public struct VerifiedAccessToken: Sendable, Hashable {
    /// `iss`: the authorization server that issued the token.
    public var issuer: String
    /// `sub`: the user (or, for `client_credentials`, the client) the token is about.
    public var subject: String
    /// `aud`: the resource servers the token is meant for.
    public var audience: [String]
    /// `client_id` (RFC 8693 §4.3): the app the token was issued to.
    public var clientID: String
    /// `scope` as the token carries it (RFC 9068 §2.2.3): space-separated scope tokens, empty
    /// when the token has none.
    public var scope: String
    /// `scope` split at spaces (RFC 6749 §3.3): what the token allows. Built when read; checks
    /// of a few scopes are cheaper with ``hasScopes(_:)``, which reads `scope` in place.
    public var scopes: Set<String> {
        get { Self.scopes(scope) }
        set { scope = newValue.sorted().joined(separator: " ") }
    }
    /// `exp`.
    public var expiresAt: Date
    /// `iat`.
    public var issuedAt: Date
    /// `nbf`, when the token has one.
    public var notBefore: Date?
    /// `jti`: the token's unique identifier (for replay lists and audit logs).
    public var tokenID: String
    /// `auth_time` (RFC 9068 §2.2.1): when the user last authenticated, for step-up decisions.
    public var authTime: Date?
    /// `acr`: the authentication context class the sign-in satisfied.
    public var acr: String?
    /// `amr`: the authentication methods used (`pwd`, `otp`, `hwk`, …).
    public var amr: [String]?
    /// `sid`: the sign-in session.
    public var sessionID: String?
    /// RFC 9449 §6.1 `cnf.jkt`: the thumbprint of the DPoP key the token is bound to; the
    /// validator then requires a proof of that key with every request. `nil` for bearer tokens.
    public var confirmationThumbprint: String?
    /// RFC 8705 §3.1 `cnf` `x5t#S256`: the thumbprint of the TLS client certificate the token
    /// is bound to; the validator then requires the request's connection to present that
    /// certificate. `nil` for tokens not bound to one.
    public var certificateThumbprint: String? = nil
    /// `gty`: how a token without a user was obtained (`client_credentials` from Sesame), `nil`
    /// on a user's token.
    public var grantType: String?

    /// Whether the token names no user: a client's token for itself (`gty` set, as Sesame sets
    /// it on `client_credentials` tokens). Its ``subject`` is then a client id: never look a
    /// user up by it.
    public var isClientOnly: Bool { grantType != nil }

    /// Whether the token carries every scope in `required`, read from `scope` without
    /// splitting it.
    public func hasScopes(_ required: some Sequence<String>) -> Bool {
        required.allSatisfy(hasScope)
    }

    /// Whether `name` is one of the space-separated tokens of `scope`.
    package func hasScope(_ name: String) -> Bool {
        let wanted = name.utf8
        guard !wanted.isEmpty else { return false }
        for part in scope.utf8.split(separator: UInt8(ascii: " ")) where part.elementsEqual(wanted) {
            return true
        }
        return false
    }
}

extension VerifiedAccessToken {
    /// `scope` split at spaces (RFC 6749 §3.3), over the UTF-8 bytes.
    static func scopes(_ scope: String?) -> Set<String> {
        guard let scope, !scope.isEmpty else { return [] }
        var result = Set<String>(minimumCapacity: 8)
        for part in scope.utf8.split(separator: UInt8(ascii: " ")) {
            result.insert(String(decoding: part, as: UTF8.self))
        }
        return result
    }

    /// The members the reader recognizes, by their claim names; a repeated one is rejected
    /// (RFC 7519 §4).
    private enum Member: String {
        case iss, sub, aud, clientID = "client_id", scope, exp, iat, nbf, jti, authTime = "auth_time", acr, amr, sid, cnf, gty

        /// This member's bit in the set of members read so far (a bit mask, not a `Set`: no
        /// hashing and no allocation per token).
        var bit: UInt16 {
            switch self {
            case .iss: 1 << 0
            case .sub: 1 << 1
            case .aud: 1 << 2
            case .clientID: 1 << 3
            case .scope: 1 << 4
            case .exp: 1 << 5
            case .iat: 1 << 6
            case .nbf: 1 << 7
            case .jti: 1 << 8
            case .authTime: 1 << 9
            case .acr: 1 << 10
            case .amr: 1 << 11
            case .sid: 1 << 12
            case .cnf: 1 << 13
            case .gty: 1 << 14
            }
        }
    }

    /// Reads a claims set with the strict single-pass reader. The claims RFC 9068 §2.2 requires
    /// (`iss`, `exp`, `aud`, `sub`, `client_id`, `iat`, `jti`) must be present; a missing one is
    /// named in the ``AccessTokenRule/malformed`` error.
    init(jwtPayload bytes: [UInt8]) throws(AccessTokenError) {
        var iss: String?, sub: String?, aud: [String]?, clientID: String?, scope: String?
        var exp: Date?, iat: Date?, nbf: Date?, jti: String?, authTime: Date?
        var acr: String?, amr: [String]?, sid: String?, gty: String?
        var seen: UInt16 = 0
        do {
            try JWTJSONReader.forEachMember(in: bytes) { key, value in
                guard let member = Member(rawValue: key) else { return }
                guard seen & member.bit == 0 else {
                    throw JWTJSONReader.Malformed(reason: "the claim \(key) appears twice")
                }
                seen |= member.bit
                switch member {
                case .iss: iss = try value.string(claim: key)
                case .sub: sub = try value.string(claim: key)
                case .aud: aud = try value.audience()
                case .clientID: clientID = try value.string(claim: key)
                case .scope: scope = try value.optionalString(claim: key)
                case .exp: exp = try value.numericDate(claim: key)
                case .iat: iat = try value.numericDate(claim: key)
                case .nbf: nbf = try value.numericDate(claim: key)
                case .jti: jti = try value.string(claim: key)
                case .authTime: authTime = try value.numericDate(claim: key)
                case .acr: acr = try value.optionalString(claim: key)
                case .amr: amr = try value.optionalStringArray(claim: key)
                case .sid: sid = try value.optionalString(claim: key)
                case .gty: gty = try value.optionalString(claim: key)
                case .cnf: break  // an object: read below, only for tokens that have one
                }
            }
        } catch let error as JWTJSONReader.Malformed {
            throw AccessTokenError(.malformed, "the claims set is not valid: \(error.reason)")
        } catch let error as NumericDateError {
            throw AccessTokenError(.malformed, "\(error.description)")
        } catch {
            throw AccessTokenError(.malformed, "the claims set is not valid JSON")
        }
        guard let iss, let sub, let aud, let clientID, let exp, let iat, let jti else {
            let missing = [("iss", iss == nil), ("sub", sub == nil), ("aud", aud == nil),
                ("client_id", clientID == nil), ("exp", exp == nil), ("iat", iat == nil), ("jti", jti == nil)]
                .filter(\.1).map(\.0)
            throw AccessTokenError(
                .malformed, "the token lacks the claims RFC 9068 §2.2 requires: \(missing.joined(separator: ", "))")
        }
        var thumbprint: String?
        var certificate: String?
        if seen & Member.cnf.bit != 0 {
            // RFC 7800 §3.1: `cnf` is an object; RFC 9449 §6.1: its `jkt` a string.
            guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
                let confirmation = object["cnf"] as? [String: Any]
            else { throw AccessTokenError(.malformed, "cnf is not a JSON object") }
            if let jkt = confirmation["jkt"] {
                guard let text = jkt as? String, !text.isEmpty else {
                    throw AccessTokenError(.malformed, "cnf.jkt is not a string")
                }
                thumbprint = text
            }
            // RFC 8705 §3.1: `x5t#S256`, the client certificate's SHA-256 thumbprint.
            if let x5t = confirmation["x5t#S256"] {
                guard let text = x5t as? String, !text.isEmpty else {
                    throw AccessTokenError(.malformed, "cnf.x5t#S256 is not a string")
                }
                certificate = text
            }
        }
        self.init(
            issuer: iss, subject: sub, audience: aud, clientID: clientID,
            scope: scope ?? "", expiresAt: exp, issuedAt: iat,
            notBefore: nbf, tokenID: jti, authTime: authTime, acr: acr, amr: amr, sessionID: sid,
            confirmationThumbprint: thumbprint, grantType: gty)
        certificateThumbprint = certificate
    }
}
