/// Persistence for first-party sign-in: auth sessions, MFA enrolments, one-time codes.
/// Implemented by ``SQLIdentityStore`` (see `SQLIdentityStore+MFA.swift`).
public protocol MFAStore: Sendable {}

extension SQLIdentityStore: MFAStore {}
