import SesameStore

/// The kind of value a seed key takes, checked on the parsed file before decoding so JSON and
/// YAML files get the same message for the same mistake (``SeedStructure``).
package enum SeedValueShape: Sendable, Equatable {
    /// A string. In YAML any scalar is read as the text written (`0123`, `no`, `123` stay
    /// strings); only `~`, `null` and an empty value mean "not set".
    case text
    /// A list of strings (RFC 7591 §2 array-valued metadata such as `redirect_uris`).
    case texts
    /// A whole number of seconds (token lifetimes).
    case number
    /// `true` or `false` (YAML also reads `yes`/`no`/`on`/`off`, YAML 1.1 §10.3.2 bool).
    case flag

    /// "must be …" wording shared by both formats.
    package var expectation: String {
        switch self {
        case .text: "a string"
        case .texts: "a list of strings"
        case .number: "a whole number"
        case .flag: "true or false"
        }
    }

    /// The message for a value of the wrong kind; `must be` wording so a reader learns the fix.
    package var wrongType: String { "has the wrong type; it must be \(expectation)" }

    /// The shape a decoder reported in a `DecodingError.typeMismatch`, if it is one of ours.
    package init?(decodedType type: Any.Type) {
        switch type {
        case is String.Type: self = .text
        case is [String].Type: self = .texts
        case is Int.Type: self = .number
        case is Bool.Type: self = .flag
        default: return nil
        }
    }
}

/// What a seed key accepts: its shape and whether it must be present and non-null.
package struct SeedKeyRule: Sendable {
    package var shape: SeedValueShape
    package var isRequired: Bool = false
}

/// The keys of one seed entry and their rules, derived from the entry's `CodingKeys`.
package protocol SeedEntryKeys: CodingKey, CaseIterable {
    var rule: SeedKeyRule { get }
}

extension SeedEntryKeys {
    /// Every key of the entry with its rule, in declaration order.
    package static var rules: [(key: String, rule: SeedKeyRule)] { allCases.map { ($0.stringValue, $0.rule) } }
}

extension ClientSeed.CodingKeys: SeedEntryKeys {
    package var rule: SeedKeyRule {
        switch self {
        case .clientID: SeedKeyRule(shape: .text, isRequired: true)
        case .name, .secret, .tokenEndpointAuthMethod, .idTokenSigningAlg, .accessTokenSigningAlg, .mfaPolicy, .appGroup,
            .jwks, .securityProfile, .tlsClientAuthSubjectDN, .tlsClientAuthSANDNS, .tlsClientAuthSANURI, .tlsClientAuthSANIP,
            .tlsClientAuthSANEmail, .defaultResource:
            SeedKeyRule(shape: .text)
        case .redirectURIs, .postLogoutRedirectURIs, .grantTypes, .scopes, .resources: SeedKeyRule(shape: .texts)
        case .accessTokenLifetime, .idTokenLifetime, .refreshTokenLifetime, .deviceCodeLifetime, .devicePollInterval:
            SeedKeyRule(shape: .number)
        case .firstParty, .requirePushedAuthorizationRequests, .dpopBoundAccessTokens, .introspectsAnyToken,
            .tlsClientCertificateBoundAccessTokens:
            SeedKeyRule(shape: .flag)
        }
    }
}

extension UserSeed.CodingKeys: SeedEntryKeys {
    package var rule: SeedKeyRule {
        switch self {
        case .username, .email: SeedKeyRule(shape: .text, isRequired: true)
        case .password, .name, .givenName, .familyName: SeedKeyRule(shape: .text)
        case .emailVerified: SeedKeyRule(shape: .flag)
        }
    }
}
