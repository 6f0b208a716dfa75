import Foundation
import SesameProtocol

/// Outcome of redeeming a code or rotating a refresh token; decided atomically by the store.
public enum RedemptionResult<Record: Sendable>: Sendable {
    /// First use: the record, now marked consumed (a refresh token: its successor).
    case redeemed(Record)
    /// Already used before: the caller must revoke the family and answer `invalid_grant`.
    case replayed(Record)
    case notFound
}
