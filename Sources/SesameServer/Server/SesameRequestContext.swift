import Hummingbird
import Logging
import Synchronization

/// Per-request facts that endpoints record and the request log line reports: which client the
/// request was for and how it ended. Never holds a token, code, password or secret.
final class RequestAnnotations: Sendable {
    private struct State {
        var clientID: String?
        var outcome: String?
        var errorID: String?
    }

    private let state = Mutex(State())

    var clientID: String? { state.withLock { $0.clientID } }
    var outcome: String? { state.withLock { $0.outcome } }
    var errorID: String? { state.withLock { $0.errorID } }

    func record(clientID: String) { state.withLock { $0.clientID = clientID } }
    func record(outcome: String) { state.withLock { $0.outcome = outcome } }
    func record(errorID: String) { state.withLock { $0.errorID = errorID } }
}

/// The Hummingbird request context of the Sesame server: the core context plus the
/// ``RequestAnnotations`` the logging middleware reads after the endpoint has answered.
public struct SesameRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    let annotations = RequestAnnotations()

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }

    /// Form bodies at /token, /revoke, /introspect and /login are small.
    public var maxUploadSize: Int { 64 * 1024 }
}
