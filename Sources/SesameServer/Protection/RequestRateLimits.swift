import Foundation
import HTTPTypes
import Hummingbird

/// ``RateLimitPolicy`` applied to requests: per client address by ``RateLimitMiddleware``
/// before the endpoint runs, per client id by ``ClientAuthenticator`` once it knows the client.
/// Over a limit: 429 `rate_limited` (``APIErrorCode/rateLimited``; at the OAuth endpoints of the
/// `token` class the RFC 6749 §5.2 error ``APIErrorCode/tooManyTokenRequests``) with `Retry-After`
/// (RFC 9110 §10.2.3) and the `RateLimit-Policy`/`RateLimit` fields of the IETF HTTPAPI draft
/// (draft-ietf-httpapi-ratelimit-headers: `"<policy>";q=<quota>;w=<window>` and
/// `"<policy>";r=<remaining>;t=<seconds to reset>`).
struct RequestRateLimits: Sendable {
    let policy: RateLimitPolicy
    let limiter: RateLimiter
    /// Where the first refusal of a key in each window is recorded (`rate_limit.exceeded`).
    var audit = AuditLog.off

    /// The limit for `endpoint` from `address` (``ClientAddressKey``); the fields to
    /// add to the response when admitted, or the 429 to throw. No address (a Unix socket) or no
    /// limit for the class: admitted without fields.
    func admitAddress(
        _ endpoint: RateLimitPolicy.EndpointClass, address: String?, context: SesameRequestContext? = nil
    ) async throws(EndpointFailure) -> HTTPFields {
        guard let address, let limit = policy.perAddress[endpoint] else { return [:] }
        return try await admit(
            Self.addressKey(endpoint, address), endpoint: endpoint, policy: Self.addressPolicy(endpoint), limit: limit,
            context: context, clientID: nil)
    }

    /// ``admitAddress(_:address:context:)`` without waiting (``RateLimiter/admitInMemory(_:limit:)``):
    /// the fields to add when the request is admitted in memory or has no limit; `nil` when the
    /// decision needs ``admitAddress(_:address:context:)`` (the store, or a refusal to answer).
    func admitAddressInMemory(_ endpoint: RateLimitPolicy.EndpointClass, address: String?) -> HTTPFields? {
        guard let address, let limit = policy.perAddress[endpoint] else { return [:] }
        guard case .admitted(let remaining, let reset) = limiter.admitInMemory(Self.addressKey(endpoint, address), limit: limit)
        else { return nil }
        return Self.fields(policy: Self.addressPolicy(endpoint), limit: limit, remaining: remaining, reset: reset)
    }

    private static func addressKey(_ endpoint: RateLimitPolicy.EndpointClass, _ address: String) -> String {
        "address\u{0}\(endpoint.rawValue)\u{0}\(address)"
    }

    private static func addressPolicy(_ endpoint: RateLimitPolicy.EndpointClass) -> String {
        "\(endpoint.rawValue)-address"
    }

    /// `RateLimit-Policy` and `RateLimit` of policy `name` with `remaining` requests left.
    private static func fields(policy name: String, limit: RateLimitPolicy.Limit, remaining: Int, reset: Int) -> HTTPFields {
        var fields = HTTPFields()
        fields[.rateLimitPolicy] = "\"\(name)\";q=\(limit.requests);w=\(Int(limit.window))"
        fields[.rateLimit] = "\"\(name)\";r=\(remaining);t=\(reset)"
        return fields
    }

    /// The limit for `endpoint` requests of the client `clientID`.
    func admitClient(_ endpoint: RateLimitPolicy.EndpointClass, clientID: String) async throws(EndpointFailure) -> HTTPFields {
        guard let limit = policy.perClient[endpoint] else { return [:] }
        return try await admit(
            "client\u{0}\(endpoint.rawValue)\u{0}\(clientID)", endpoint: endpoint, policy: "\(endpoint.rawValue)-client",
            limit: limit, context: nil, clientID: clientID)
    }

    private func admit(
        _ key: String, endpoint: RateLimitPolicy.EndpointClass, policy name: String, limit: RateLimitPolicy.Limit,
        context: SesameRequestContext?, clientID: String?
    ) async throws(EndpointFailure) -> HTTPFields {
        switch await limiter.admit(key, limit: limit) {
        case .admitted(let remaining, let reset):
            return Self.fields(policy: name, limit: limit, remaining: remaining, reset: reset)
        case .refused(let retryAfter, let first):
            if first {
                audit.record(
                    .rateLimited, reason: name, context: context, clientID: clientID,
                    detail: ["limit": "\(limit.requests)", "window_s": "\(Int(limit.window))"])
            }
            let fields = Self.fields(policy: name, limit: limit, remaining: 0, reset: retryAfter)
            var failure = EndpointFailure(
                endpoint == .token ? .tooManyTokenRequests : .rateLimited,
                "Too many requests of this kind from this \(name.hasSuffix("client") ? "client" : "address"); retry after \(retryAfter) second\(retryAfter == 1 ? "" : "s") (Retry-After).",
                headers: fields)
            failure.retryAfter = retryAfter
            throw failure
        }
    }
}

/// Applies the per-address limit of the matched route's class (``RateLimitPolicy/EndpointClass``)
/// before the endpoint runs, and adds the `RateLimit-Policy`/`RateLimit` fields to its answer.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = SesameRequestContext
    let limits: RequestRateLimits

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let route = context.endpointPath,
            let endpoint = RateLimitPolicy.EndpointClass.of(route: route, method: request.method.rawValue)
        else { return try await next(request, context) }
        let fields: HTTPFields
        do {
            fields = try await limits.admitAddress(
                endpoint, address: ClientAddressKey.of(context.clientAddress), context: context)
        } catch {
            context.annotations.record(outcome: "rate_limited")
            throw error
        }
        var response = try await next(request, context)
        for field in fields where response.headers[field.name] == nil { response.headers.append(field) }
        return response
    }
}
