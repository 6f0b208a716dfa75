import Foundation

/// The `claims` authorization request parameter (OIDC Core §5.5): individual claims the relying
/// party asks for, to be returned from the UserInfo endpoint (`userinfo`) or in the ID token
/// (`id_token`), independently of the scope values.
///
/// Encoded as the JSON object of §5.5, e.g.
/// `{"id_token":{"acr":{"essential":true,"values":["urn:sesame:acr:mfa"]}},"userinfo":{"email":null}}`.
/// Members not understood are ignored (§5.5), so unknown top-level members and unknown members
/// of an individual request decode without error.
public struct ClaimsRequest: Codable, Sendable, Equatable {
    /// Claims to return from the UserInfo endpoint (§5.5: `userinfo`).
    public var userinfo: [String: IndividualClaimRequest]
    /// Claims to return in the ID token (§5.5: `id_token`).
    public var idToken: [String: IndividualClaimRequest]

    /// A request for the claims in `userinfo` (UserInfo endpoint) and `idToken` (ID token), keyed
    /// by claim name.
    public init(
        userinfo: [String: IndividualClaimRequest] = [:], idToken: [String: IndividualClaimRequest] = [:]
    ) {
        self.userinfo = userinfo
        self.idToken = idToken
    }

    /// Nothing is requested.
    public var isEmpty: Bool { userinfo.isEmpty && idToken.isEmpty }

    /// Parses the parameter's value. Fails with a message naming the rule that was broken: the
    /// value must be a JSON object whose `userinfo` and `id_token` members are objects, whose
    /// members are `null` or objects (§5.5.1).
    public static func parse(_ text: String) throws(ClaimsRequestError) -> ClaimsRequest {
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        } catch {
            throw ClaimsRequestError("claims is not valid JSON")
        }
        guard value is [String: Any] else {
            throw ClaimsRequestError("claims must be a JSON object (OIDC Core section 5.5)")
        }
        do {
            return try JSONDecoder().decode(ClaimsRequest.self, from: Data(text.utf8))
        } catch let error as ClaimsRequestError {
            throw error
        } catch DecodingError.typeMismatch(_, let context), DecodingError.dataCorrupted(let context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw ClaimsRequestError(
                "claims.\(path) has the wrong type: members are null or objects with essential (boolean), value or values (OIDC Core section 5.5.1)")
        } catch {
            throw ClaimsRequestError("claims cannot be read: \(error)")
        }
    }

    /// The compact JSON form, with members in a stable order.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding dictionaries of Codable values cannot fail.
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// Decodes the §5.5 object: an absent or `null` `userinfo` or `id_token` member requests
    /// nothing, and unknown members are ignored.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userinfo = try Self.members(container, .userinfo)
        idToken = try Self.members(container, .idToken)
    }

    /// A member that is absent or `null` requests nothing (§5.5: both are optional).
    private static func members(
        _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
    ) throws -> [String: IndividualClaimRequest] {
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return [:] }
        return try container.decode([String: IndividualClaimRequest].self, forKey: key)
    }

    /// Encodes the §5.5 object, leaving out `userinfo` and `id_token` when they request nothing.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if !userinfo.isEmpty { try container.encode(userinfo, forKey: .userinfo) }
        if !idToken.isEmpty { try container.encode(idToken, forKey: .idToken) }
    }

    enum CodingKeys: String, CodingKey {
        case userinfo
        case idToken = "id_token"
    }
}

/// One claim's request (OIDC Core §5.5.1): `null` asks for it in the default manner (voluntary);
/// an object may mark it `essential` and ask for a particular `value` or one of `values`.
public struct IndividualClaimRequest: Codable, Sendable, Equatable {
    /// §5.5.1: the claim is needed for the relying party's task, not just convenient.
    public var essential: Bool
    /// §5.5.1: the claim should have this value.
    public var value: ClaimValue?
    /// §5.5.1: the claim should have one of these values, in order of preference.
    public var values: [ClaimValue]?

    /// A request for one claim; the defaults make the voluntary request, which encodes as `null`.
    public init(essential: Bool = false, value: ClaimValue? = nil, values: [ClaimValue]? = nil) {
        self.essential = essential
        self.value = value
        self.values = values
    }

    /// `value` and `values` together, in the relying party's order.
    public var acceptedValues: [ClaimValue] { (value.map { [$0] } ?? []) + (values ?? []) }

    /// The requested values that are strings (how `acr` and `sub` are compared).
    public var acceptedStrings: [String] {
        acceptedValues.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    /// Decodes `null` (a voluntary request) or an object with `essential`, `value` and `values`;
    /// other members are ignored.
    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self.init()
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            essential: try container.decodeIfPresent(Bool.self, forKey: .essential) ?? false,
            value: try container.decodeIfPresent(ClaimValue.self, forKey: .value),
            values: try container.decodeIfPresent([ClaimValue].self, forKey: .values))
    }

    /// The default request encodes as `null`, as §5.5.1 writes it.
    public func encode(to encoder: any Encoder) throws {
        if self == IndividualClaimRequest() {
            var single = encoder.singleValueContainer()
            try single.encodeNil()
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        if essential { try container.encode(true, forKey: .essential) }
        try container.encodeIfPresent(value, forKey: .value)
        try container.encodeIfPresent(values, forKey: .values)
    }

    enum CodingKeys: String, CodingKey {
        case essential, value, values
    }
}

/// A requested claim value (OIDC Core §5.5.1): a JSON string, number or boolean.
public enum ClaimValue: Codable, Sendable, Equatable, Hashable {
    /// A JSON string, e.g. an `acr` value or a `sub`.
    case string(String)
    /// A JSON number.
    case number(Double)
    /// A JSON boolean.
    case bool(Bool)

    /// Decodes a JSON boolean, number or string; anything else (`null`, an array, an object) fails.
    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Encodes the bare JSON value.
    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .string(let text): try single.encode(text)
        case .number(let number): try single.encode(number)
        case .bool(let bool): try single.encode(bool)
        }
    }
}

/// Why a `claims` parameter was refused; the message names the rule.
public struct ClaimsRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message naming the broken rule, e.g. `claims is not valid JSON`; the server sends it as
    /// the `error_description` of `invalid_request`.
    public let description: String
    /// An error with the message `description`.
    public init(_ description: String) { self.description = description }
}
