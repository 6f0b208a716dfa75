import Hummingbird
import SesameResourceServer

/// A request context that carries the access token ``AccessTokenMiddleware`` verified, for the
/// handlers behind it.
public protocol AccessTokenRequestContext: RequestContext {
    /// The verified token; `nil` before the middleware ran.
    var accessToken: VerifiedAccessToken? { get set }
}

extension AccessTokenRequestContext {
    /// The verified token, for a handler behind ``AccessTokenMiddleware``. Throws 401 when the
    /// route was (wrongly) registered without the middleware, rather than trapping.
    public func requireAccessToken() throws -> VerifiedAccessToken {
        guard let accessToken else {
            throw HTTPError(.unauthorized, message: "This route is not behind AccessTokenMiddleware.")
        }
        return accessToken
    }
}

/// The context to use when an API needs nothing else: Hummingbird's basic context plus the token.
public struct ResourceRequestContext: AccessTokenRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The token ``AccessTokenMiddleware`` verified.
    public var accessToken: VerifiedAccessToken?

    /// A context for a new request, without a token yet.
    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.accessToken = nil
    }
}
