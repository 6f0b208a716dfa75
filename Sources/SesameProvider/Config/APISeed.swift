import Foundation
import SesameProtocol
import SesameStore

/// One API of the seed file (RFC 8707 resource; docs/resource-server.md); keys as `sesame api add`:
///
/// ```yaml
/// apis:
///   - identifier: https://shop-api.example.com
///     name: Shop
///     scopes: [orders:read, orders:write]
/// ```
public struct APISeed: Codable, Sendable, Equatable {
    public var identifier: String
    public var name: String?
    public var scopes: [String]?

    public init(identifier: String, name: String? = nil, scopes: [String]? = nil) {
        self.identifier = identifier
        self.name = name
        self.scopes = scopes
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, name, scopes
    }

    /// The validated registration (``APIValidation``).
    package func record(createdAt: Date = Date()) throws(ValidationIssue) -> APIRecord {
        try APIValidation.record(identifier: identifier, name: name, scopes: scopes ?? [], now: createdAt)
    }
}

extension APISeed.CodingKeys: SeedEntryKeys {
    package var rule: SeedKeyRule {
        switch self {
        case .identifier: SeedKeyRule(shape: .text, isRequired: true)
        case .name: SeedKeyRule(shape: .text)
        case .scopes: SeedKeyRule(shape: .texts)
        }
    }
}
