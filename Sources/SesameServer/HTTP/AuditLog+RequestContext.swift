import SesameProvider

extension RequestOrigin {
    /// The origin of a request as the server saw it: the client address (after trusted
    /// proxies), the client id the endpoint recorded, and the request id.
    init(_ context: SesameRequestContext) {
        self.init(
            clientAddress: ClientAddressKey.of(context.clientAddress), clientID: context.annotations.clientID,
            requestID: context.id)
    }
}

extension AuditLog {
    /// Records `event` for the request `context` (``AuditLog/record(_:reason:origin:clientID:userID:detail:)``).
    func record(
        _ event: AuditEvent, reason: String? = nil, context: SesameRequestContext?, clientID: String? = nil,
        userID: String? = nil, detail: [String: String] = [:]
    ) {
        record(
            event, reason: reason, origin: context.map(RequestOrigin.init), clientID: clientID, userID: userID,
            detail: detail)
    }
}
