import SesameStore

/// Where a request came from, as the provider's logic records it (the audit log, throttles):
/// plain values, no HTTP types. The HTTP module builds it from its request context.
public struct RequestOrigin: Sendable, Equatable {
    /// The client's address as a key (IPv4, or IPv6 by /64), `nil` when unknown.
    public var clientAddress: String?
    /// The OAuth client the request authenticated as or named, when known.
    public var clientID: String?
    /// The request's id (the one in the server's log lines).
    public var requestID: String?

    public init(clientAddress: String? = nil, clientID: String? = nil, requestID: String? = nil) {
        self.clientAddress = clientAddress
        self.clientID = clientID
        self.requestID = requestID
    }
}
