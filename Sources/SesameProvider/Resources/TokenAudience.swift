import Foundation
import SesameStore

/// The APIs one access token is for, and what that does to its `aud` and `scope` (RFC 8707 §2,
/// RFC 9068 §3).
///
/// Without APIs the token is the issuer's, as before APIs existed: `aud` is the issuer and the
/// token carries every granted scope. With APIs, `aud` names them and the token carries only the
/// granted scopes they define, so a token obtained for one API is refused by another and cannot
/// be used beyond what its APIs understand. When `openid` was granted, the issuer stays in `aud`
/// with the OpenID Connect scopes, so `/userinfo` keeps answering (OIDC Core §5.3); no other
/// scope of the issuer (the admin API's, `device_sso`) rides along.
package struct TokenAudience: Sendable, Equatable {
    /// The APIs, in the order asked for; empty: the issuer alone.
    package var apis: [APIRecord]

    package init(apis: [APIRecord]) { self.apis = apis }

    /// A token for the issuer alone.
    package static let issuerOnly = TokenAudience(apis: [])

    /// The APIs' identifiers.
    package var identifiers: [String] { apis.map(\.identifier) }

    /// The scopes of OpenID Connect (OIDC Core §5.4, §11) that a token for APIs keeps beside
    /// theirs when `openid` was granted: what `/userinfo` reads.
    package static let openIDScopes: Set<String> = ["openid", "profile", "email", "phone", "address", "offline_access"]

    /// The token's `aud` and scopes for the `granted` scopes.
    package func restrict(_ granted: [String], issuer: String) -> (audience: [String], scopes: [String]) {
        guard !apis.isEmpty else { return ([issuer], granted) }
        let defined = Set(apis.flatMap(\.scopes))
        let withUserInfo = granted.contains("openid")
        let scopes = granted.filter { defined.contains($0) || (withUserInfo && Self.openIDScopes.contains($0)) }
        return (identifiers + (withUserInfo ? [issuer] : []), scopes)
    }
}
