/// Everything an OpenID provider keeps, as one store: ``SQLIdentityStore`` implements every part
/// on SQLite and PostgreSQL alike. The server and its admin tools take this, so no feature finds
/// its part by a downcast that could quietly fail and switch the feature off.
public typealias ProviderStore = IdentityStore & AccountStore & MFAStore & PINStore & PasskeyStore
    & FederationStore & DeviceSessionStore & AuditStore & ChallengeRedemptionStore & ThrottleStore & RateWindowStore
    & PushedRequestStore & PendingAuthorizationStore & DPoPProofStore & DeviceAuthorizationStore & AdminStore
    & ClientRegistrationStore
