/// Persistence for account self-service: verification codes, the message outbox, devices.
/// Implemented by ``SQLIdentityStore`` (see `SQLIdentityStore+Accounts.swift`).
public protocol AccountStore: Sendable {}

extension SQLIdentityStore: AccountStore {}
